export { chat } from './chat.js';
