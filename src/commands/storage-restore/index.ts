// The storage-restore noun: the walkthrough / start itself, plus `plan` and `status`.
import { defineCommand } from '../../core/define.js';
import { plan } from './plan.js';
import { storageRestoreCommand } from './restore.js';
import { status } from './status.js';

export const storageRestore = defineCommand({
  ...storageRestoreCommand,
  subcommands: [plan, status],
} as typeof storageRestoreCommand);
