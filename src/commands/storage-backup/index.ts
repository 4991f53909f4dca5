// The storage-backup noun: backups of the site's stored files.
import { defineCommand } from '../../core/define.js';
import { browse } from './browse.js';
import { clear } from './clear.js';
import { create } from './create.js';
import { list } from './list.js';
import { read } from './read.js';

export const storageBackup = defineCommand({
  name: 'storage-backup',
  aliases: ['storage-backups'],
  summary: 'List, browse, read, create and clear storage backups',
  description:
    'Backups of the site’s stored files (public and private copies). To restore one, see `storage-restore --help`.',
  learnMore: 'docs/guide.md#storage-backups',
  subcommands: [list, browse, read, create, clear],
});
