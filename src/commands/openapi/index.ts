export { openapi } from './openapi.js';
