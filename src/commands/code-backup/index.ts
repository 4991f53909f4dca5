// The code-backup noun: backups of the code the agent wrote.
import { defineCommand } from '../../core/define.js';
import { list } from './list.js';
import { restore } from './restore.js';

export const codeBackup = defineCommand({
  name: 'code-backup',
  aliases: ['code-backups'],
  summary: 'List and restore code backups (the files the agent wrote)',
  description:
    'Code backups hold the files the agent wrote. Restoring one deletes the whole chat history of the site for everyone ' +
    'and discards queued messages; see `code-backup restore --help`.',
  learnMore: 'docs/guide.md#code-backups',
  subcommands: [list, restore],
});
