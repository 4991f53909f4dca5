// The command tree: one entry per noun (a noun's index.ts wires its verbs).
import type { CommandDefinition } from './define.js';
import { auth } from './auth/index.js';
import { backup } from './backup/index.js';
import { codeBackup } from './code-backup/index.js';
import { api } from './api/index.js';
import { completion } from './completion/index.js';
import { openapi, tools } from './discovery/index.js';
import { email } from './email/index.js';
import { publish } from './publish/index.js';
import { site } from './site/index.js';
import { chat } from './chat/index.js';
import { job } from './job/index.js';
import { message } from './message/index.js';
import { queue } from './queue/index.js';
import { storageBackup } from './storage-backup/index.js';
import { storageRestore } from './storage-restore/index.js';
import { upload } from './upload/index.js';
import { workspace } from './workspace/index.js';
import { emulator } from './emulator/index.js';
import { demo } from './demo/index.js';

export const COMMANDS: CommandDefinition<any>[] = [
  auth,
  workspace,
  site,
  chat,
  job,
  message,
  queue,
  upload,
  publish,
  backup,
  codeBackup,
  storageBackup,
  storageRestore,
  email,
  api,
  tools,
  openapi,
  completion,
  emulator,
  demo,
];
