// `sitebuilder storage-restore status <site> <restoreId> [--wait]`: one read of a storage
// restore, or (with --wait) following it until it reads completed.
import type { Context } from '../../context.js';
import { printFields } from '../../io/print.js';
import { known, recordOf } from '../../service/read.js';
import { readRestoreRow } from '../../service/storage-restore.js';
import { sanitizeDeep } from '../../io/sanitize.js';
import { defineCommand, parseDuration, SERVICE_EXITS } from '../../core/define.js';
import { RECONNECT_FOR_OPTION } from '../shared/reconnect-option.js';
import { formatWhen } from '../shared/format.js';
import { followRestore, readRestore } from './follow.js';
import { readPlan } from './plan-view.js';
import { sayLeftEmpty } from '../shared/listing.js';
import { SITE_ID_ARG } from '../shared/site-arg.js';

export const DEFAULT_RESTORE_TIMEOUT_MS = 30 * 60_000;

/**
 * The fields of a restore row people look at (the whole row goes to --json). The service shows
 * only `_id` and a status: a value its answer did not give is left empty and named on stderr.
 */
export function printRestore(ctx: Context, row: Record<string, unknown>): void {
  const r = readRestoreRow(sanitizeDeep(row));
  const tty = ctx.io.stdoutIsTTY;
  const rawPlan = known(r.plan);
  const plan = rawPlan ? readPlan(rawPlan) : undefined;
  const status = known(r.status);
  const completed = known(r.completed);
  const safety = known(r.safetyBackupId) ?? (plan && !plan.safetyBackup ? 'none' : undefined);
  const paths = known(r.paths) ?? [];
  const rows: Array<[string, unknown, string?]> = [
    ['restore', known(r.id), 'restore id'],
    ['status', status, 'status'],
    ['backup', known(r.backupId), 'backup id'],
    ['mode', known(r.mode), 'mode'],
    ...(paths.length ? ([['paths', paths.join(', ')]] as Array<[string, unknown]>) : []),
    ['started', formatWhen(known(r.started), tty), 'start time'],
    // Only a completed restore has a completion time to miss.
    ['completed', formatWhen(completed, tty), status === 'completed' ? 'completion time' : undefined],
    ['before restore backup', safety, 'Before restore backup'],
    ...(plan
      ? ([
          [
            'files',
            `${plan.filesAdded} added, ${plan.filesReplaced} replaced, ${plan.filesRemoved} removed, ${plan.filesSkipped} skipped`,
          ],
        ] as Array<[string, unknown]>)
      : []),
  ];
  printFields(
    ctx.io,
    rows.map(([k, v]) => [k, v]),
  );
  const missing = rows.flatMap(([, v, word]) => (word && (v === undefined || v === '') ? [word] : []));
  sayLeftEmpty(ctx, missing);
}

export const status = defineCommand({
  name: 'status',
  summary: 'Show a storage restore (or follow it with --wait)',
  description:
    'Reads a storage restore started by `storage-restore`; --wait follows it until it reads completed (exit 8 at --timeout, or when the connection to the service is lost for --reconnect-for; it goes on).',
  exitCodes: `0 shown (with --wait: completed), 8 still running at --timeout or no connection; ${SERVICE_EXITS}`,
  learnMore: 'docs/scripting.md#storage-restore-from-a-script',
  args: [
    SITE_ID_ARG,
    { name: 'restoreId', description: 'the restore row’s _id, printed when the restore started', required: true },
  ],
  options: [
    { flags: '--wait', description: 'follow it until it reads completed' },
    {
      flags: '--timeout <duration>',
      description: 'with --wait: stop waiting after this long (default 30m) and exit 8',
      parse: parseDuration('--timeout'),
    },
    RECONNECT_FOR_OPTION,
  ],
  examples: [
    'sitebuilder storage-restore status s_123 rst_9',
    'sitebuilder storage-restore status s_123 rst_9 --wait --json | jq -r .status',
  ],
  jsonFields:
    'the restore row as the service sends it (the service shows _id and status; our emulator’s fields, for example: backupId, mode, paths, plan, safetyBackupId, createdAt, completedAt)',
  async run(opts, ctx) {
    const siteId = ctx.site(opts.site);
    const row = opts.wait
      ? await followRestore(ctx, siteId, opts.restoreId, opts.timeout ?? DEFAULT_RESTORE_TIMEOUT_MS, opts.reconnectFor)
      : await readRestore(ctx, siteId, opts.restoreId);
    if (ctx.globals.json) return ctx.io.printJson(recordOf(row));
    printRestore(ctx, row);
  },
});
