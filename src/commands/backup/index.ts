// The backup noun: site backups (pages, components and settings).
import { defineCommand } from '../../core/define.js';
import { list } from './list.js';
import { restore } from './restore.js';

export const backup = defineCommand({
  name: 'backup',
  aliases: ['backups'],
  summary: 'List and restore site backups (pages, components, settings)',
  description:
    'Site backups hold the pages, components and settings of a site. For the code the agent wrote see `code-backup`; ' +
    'for stored files see `storage-backup` and `storage-restore`.',
  learnMore: 'docs/guide.md#site-backups',
  subcommands: [list, restore],
});
