export { call as api } from './call.js';
