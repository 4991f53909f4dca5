// `sitebuilder storage-backup read <site> <backupId> <path>`: one file of a storage backup.
// Piped, the bytes go to stdout as they are (`> file` works); on a terminal a text file is
// shown with control sequences stripped, and a binary one needs --output.
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { readFileContent, readFileVisibility } from '../../service/backups.js';
import { recordOf } from '../../service/read.js';
import { sanitize } from '../../io/sanitize.js';
import { defineCommand } from '../../core/define.js';
import { formatBytes } from '../shared/format.js';
import type { MethodArgs } from '../../api/method-args.js';
import { SITE_ID_ARG } from '../shared/site-arg.js';

const looksBinary = (buf: Buffer): boolean => buf.includes(0) || !buf.equals(Buffer.from(buf.toString('utf8'), 'utf8'));

export const read = defineCommand({
  name: 'read',
  aliases: ['cat'],
  summary: 'Print or save one file of a storage backup',
  description:
    'Reads one file of a storage backup. Piped, its bytes go to stdout unchanged; on a terminal a text file is printed ' +
    '(control sequences stripped) and a binary file needs --output. When the backup holds both a public and a private ' +
    'copy of the path, --visibility picks one (the public copy by default).',
  exitCodes: '0 read; 1 refused or failed, 2 usage (a binary file on a terminal needs --output), 4 auth',
  args: [
    SITE_ID_ARG,
    { name: 'backupId', description: 'from `storage-backup list`', required: true },
    { name: 'path', description: 'the file’s path in the backup, from `storage-backup browse`', required: true },
  ],
  options: [
    {
      flags: '--visibility <copy>',
      description: 'which copy, when the backup has both',
      choices: ['public', 'private'],
    },
    { flags: '-o, --output <file>', description: 'write the file here instead of stdout' },
  ],
  examples: [
    'sitebuilder storage-backup read s_123 sb_4 docs/terms.txt',
    'sitebuilder storage-backup read s_123 sb_4 images/logo.png -o logo.png',
    'sitebuilder storage-backup read s_123 sb_4 data/export.csv > export.csv',
  ],
  jsonFields:
    'the service’s data as it sends it (our emulator’s fields, for example: { path, visibility, size, contentType, encoding, content }, content in base64); with --output: { path, output, bytes, visibility }',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const path = opts.path.replace(/^\/+/, '');
    if (!path || path.endsWith('/'))
      throw new UsageError(
        `${JSON.stringify(opts.path)} is a folder; name one file (\`storage-backup browse\` lists them).`,
      );
    const args: MethodArgs<'read_storage_backup_file'> = { projectId: siteId, backupId: opts.backupId, path };
    if (opts.visibility) args.visibility = opts.visibility;
    const { envelope } = await ctx.api().call('read_storage_backup_file', args, { signal: ctx.signal });
    const data = recordOf(envelope.data);
    if (ctx.globals.json && !opts.output) return ctx.io.printJson(data);
    const bytes = readFileContent(data);
    if (opts.output) {
      await writeFile(opts.output, bytes);
      if (ctx.globals.json)
        ctx.io.printJson({
          path,
          output: opts.output,
          bytes: bytes.length,
          visibility: readFileVisibility(data) ?? null,
        });
      else ctx.io.info(`Wrote ${formatBytes(bytes.length)} to ${opts.output}.`);
      return;
    }
    if (!ctx.io.stdoutIsTTY) return ctx.io.writeFileBytes(bytes);
    if (looksBinary(bytes)) {
      throw new UsageError(
        `${path} is a binary file (${formatBytes(bytes.length)}); save it with --output FILE, or pipe it.`,
      );
    }
    const text = sanitize(bytes.toString('utf8'));
    ctx.io.out(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  },
});
