// The command tree: one entry per noun (a noun's index.ts wires its verbs).
import type { CommandDefinition } from './define.js';

export const COMMANDS: CommandDefinition<any>[] = [];
