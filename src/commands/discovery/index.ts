export { openapi } from './openapi.js';
export { tools } from './tools.js';
