export { completion } from './completion.js';
