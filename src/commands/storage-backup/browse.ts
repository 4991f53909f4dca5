// `sitebuilder storage-backup browse <site> <backupId> [path]`: the files and folders of a
// storage backup, one folder at a time (or the whole tree with --recursive). The paths shown
// are the ones `storage-restore --mode selected --path` takes; a folder's ends with a slash.
import { itemsOf } from '../../api/paginate.js';
import { printTable } from '../../io/print.js';
import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { readBrowseEntry } from '../../service/backups.js';
import { known } from '../../service/read.js';
import { formatBytes } from '../shared/format.js';
import type { MethodArgs } from '../../api/method-args.js';
import { SITE_ID_ARG } from '../shared/site-arg.js';

const filesText = (n: number | undefined) => (n === undefined ? '' : `${n} file${n === 1 ? '' : 's'}`);

export const isFolder = (e: unknown): boolean => readBrowseEntry(e).folder;

export const browse = defineCommand({
  name: 'browse',
  aliases: ['ls-files'],
  summary: 'List the files and folders in a storage backup',
  description:
    'Lists one folder of a storage backup (the top one by default): each file with its size and whether its copy is public, ' +
    'private or both, each folder with its number of files. --recursive lists every file below the folder.',
  exitCodes: `0 listed; ${SERVICE_EXITS}`,
  args: [
    SITE_ID_ARG,
    { name: 'backupId', description: 'from `storage-backup list`', required: true },
    { name: 'path', description: 'a folder in the backup, e.g. images/ (default: the top)' },
  ],
  options: [{ flags: '-r, --recursive', description: 'every file below the folder, not only its direct entries' }],
  examples: [
    'sitebuilder storage-backup browse s_123 sb_4',
    'sitebuilder storage-backup browse s_123 sb_4 images/',
    'sitebuilder storage-backup browse s_123 sb_4 --recursive | cut -f1',
  ],
  jsonFields:
    'the service’s data as it sends it (our emulator’s fields, for example: { path, items: [{ type: file|folder, name, path, size, visibility, files }] })',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const args: MethodArgs<'browse_storage_backup'> = { projectId: siteId, backupId: opts.backupId };
    const folder = (opts.path ?? '').replace(/^\/+/, '');
    if (folder) args.path = folder.endsWith('/') ? folder : `${folder}/`;
    if (opts.recursive) args.recursive = true;
    const { envelope } = await ctx.api().call('browse_storage_backup', args, { signal: ctx.signal });
    if (ctx.globals.json) return ctx.io.printJson(envelope.data);
    const tty = ctx.io.stdoutIsTTY;
    const entries = itemsOf(envelope.data).map(readBrowseEntry);
    printTable(
      ctx.io,
      [
        { header: 'PATH', value: (e) => known(e.path) ?? known(e.name) },
        { header: 'TYPE', value: (e) => (e.folder ? 'folder' : 'file') },
        { header: 'SIZE', value: (e) => (tty ? formatBytes(known(e.size)) : known(e.size)) },
        { header: 'COPIES', value: (e) => (e.folder ? filesText(known(e.files)) : known(e.visibility)) },
      ],
      entries,
    );
  },
});
