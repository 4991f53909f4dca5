// The command tree: one entry per noun (a noun's index.ts wires its verbs).
import type { CommandDefinition } from './define.js';
import { auth } from './auth/index.js';
import { publish } from './publish/index.js';
import { site } from './site/index.js';
import { upload } from './upload/index.js';
import { workspace } from './workspace/index.js';
import { emulator } from './emulator/index.js';
import { demo } from './demo/index.js';

export const COMMANDS: CommandDefinition<any>[] = [
  auth,
  workspace,
  site,
  upload,
  publish,
  emulator,
  demo,
];
