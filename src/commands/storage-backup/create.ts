// `sitebuilder storage-backup create <site> [--wait]`: takes a backup of the site's storage.
// The backup is archived in the background; --wait follows it until it can be restored.
import { paginate } from '../../api/paginate.js';
import { pollUntil } from '../../api/poll.js';
import type { Context } from '../../context.js';
import { CliError, InterruptedError, PendingError } from '../../errors.js';
import { printFields } from '../../io/print.js';
import { isArchiving, readCreatedStorageBackup, readStorageBackup, storageBackupId } from '../../service/backups.js';
import { known, recordOf } from '../../service/read.js';
import { startSpinner } from '../../io/spinner.js';
import { storageProgress } from '../shared/storage-progress.js';
import { defineCommand, parseDuration, SERVICE_EXITS } from '../../core/define.js';
import { formatBytes, formatWhen } from '../shared/format.js';
import { statusText } from './status-text.js';
import { sayLeftEmpty } from '../shared/listing.js';
import { SITE_ARG } from '../shared/site-arg.js';

async function waitUntilArchived(
  ctx: Context,
  siteId: string,
  backup: Record<string, unknown>,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const client = ctx.api();
  const id = storageBackupId(backup);
  const spinner = await startSpinner(ctx.io, ctx.clock, `Archiving storage backup ${id}`);
  // Its counts, when the record carries them (service/storage-progress.ts).
  const counts = storageProgress(ctx, spinner, `Archiving storage backup ${id}`);
  counts(backup);
  try {
    const { value, timedOut } = await pollUntil({
      clock: ctx.clock,
      budget: () => client.budget,
      signal: ctx.signal,
      timeoutMs,
      initial: backup,
      read: async () => {
        // The listing's order is not shown: look through its pages until the backup turns up.
        for await (const b of paginate(client, 'list_storage_backups', { projectId: siteId }, { signal: ctx.signal }))
          if (storageBackupId(b) === id) return recordOf(b);
        throw new CliError(`Storage backup ${id} is no longer listed; it may have been cleared.`);
      },
      onRead: counts,
      done: (b) => !isArchiving(b),
    });
    if (timedOut)
      throw new PendingError(`Storage backup ${id} is still being archived (--timeout); it goes on.`, { backupId: id });
    return value;
  } catch (err) {
    if (ctx.signal.aborted)
      throw new InterruptedError(`Stopped waiting; storage backup ${id} is still being archived.`);
    throw err;
  } finally {
    spinner.stop();
  }
}

export const create = defineCommand({
  name: 'create',
  summary: 'Take a backup of the site’s storage',
  description:
    'Takes a backup of every stored file of the site (public and private copies). The backup is archived in the background ' +
    'and cannot be restored until that is done; --wait follows it until then. Refused while a storage restore runs.',
  exitCodes: `0 taken (with --wait: archived), 8 still archiving at --timeout; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  options: [
    { flags: '--wait', description: 'wait until the backup is archived' },
    {
      flags: '--timeout <duration>',
      description: 'with --wait: stop waiting after this long (default 10m) and exit 8',
      parse: parseDuration('--timeout'),
    },
  ],
  examples: [
    'sitebuilder storage-backup create s_123',
    'sitebuilder storage-backup create s_123 --wait --json | jq -r .backupId',
  ],
  jsonFields:
    'the storage backup record as the service sends it (the service shows backupId; our emulator’s fields, for example: status, createdAt, sizeBytes, files, restorable)',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const { envelope } = await ctx.api().call('create_storage_backup', { projectId: siteId }, { signal: ctx.signal });
    let backup = readCreatedStorageBackup(envelope.data);
    if (opts.wait) backup = await waitUntilArchived(ctx, siteId, backup, opts.timeout ?? 10 * 60_000);
    if (ctx.globals.json) return ctx.io.printJson(backup);
    const b = readStorageBackup(backup);
    const size = known(b.size);
    const rows: Array<[string, unknown, string]> = [
      ['backup', known(b.id) ?? '', 'backup id'],
      ['status', statusText(b), 'status'],
      ['created', formatWhen(known(b.created), ctx.io.stdoutIsTTY), 'creation time'],
      ['size', ctx.io.stdoutIsTTY ? formatBytes(size) : (size ?? ''), 'size'],
    ];
    printFields(
      ctx.io,
      rows.map(([k, v]) => [k, v]),
    );
    const missing = rows.filter(([, v]) => v === '' || v === undefined).map(([, , word]) => word);
    sayLeftEmpty(ctx, missing);
    if (!opts.wait && isArchiving(backup))
      ctx.io.info(
        'It is being archived; it can be restored once `storage-backup list` shows it ready (or use --wait).',
      );
  },
});
