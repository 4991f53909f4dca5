// Follows a storage restore with get_storage_restore_status until it reads `completed`,
// polling adaptively on the injected clock (every few seconds, slower when the budget runs
// low). The service names no other status value: anything that reads like a failure ends too.
// A lost service is tried again for a while (api/poll.ts Reconnect); giving up is exit 8 with
// the command that follows the restore again.
import { flag, sb } from '../../io/shell.js';
import type { CallOptions } from '../../api/call.js';
import type { Context } from '../../context.js';
import { ConnectionLostError, pollUntil, Reconnect } from '../../api/poll.js';
import { CliError, InterruptedError, PendingError } from '../../errors.js';
import { readRestoreRow, restoreRowOf } from '../../service/storage-restore.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { formatElapsed, startSpinner } from '../../io/spinner.js';
import { storageProgress } from '../shared/storage-progress.js';

export const restoreStatus = (row: unknown): string => {
  const s = readRestoreRow(row).status;
  return typeof s === 'string' ? s : 'unknown';
};
export const isCompleted = (row: unknown): boolean => restoreStatus(row) === 'completed';
const isFailed = (row: unknown): boolean => /fail|error|cancel/i.test(restoreStatus(row));

export async function readRestore(
  ctx: Context,
  siteId: string,
  restoreId: string,
  call: Pick<CallOptions, 'maxAttempts' | 'retryFloorMs'> = {},
): Promise<Record<string, unknown>> {
  const { envelope } = await ctx
    .api()
    .call('get_storage_restore_status', { projectId: siteId, restoreId }, { signal: ctx.signal, ...call });
  return restoreRowOf(envelope.data);
}

/** Polls until completed; throws PendingError (exit 8) at the timeout, CliError when it failed. */
export async function followRestore(
  ctx: Context,
  siteId: string,
  restoreId: string,
  timeoutMs: number,
  reconnectForMs?: number,
): Promise<Record<string, unknown>> {
  const client = ctx.api();
  const label = (status?: string) =>
    `Restoring storage (${sanitizeInline(restoreId)}${status ? `: ${sanitizeInline(status)}` : ''})`;
  const spinner = await startSpinner(ctx.io, ctx.clock, label());
  // Its counts, when the status carries them (service/storage-progress.ts).
  const counts = storageProgress(ctx, spinner, `Restoring storage ${sanitizeInline(restoreId)}`);
  const statusCmd = sb('storage-restore status', siteId, restoreId);
  const waitCmd = sb('storage-restore status', siteId, restoreId, flag('--wait'));
  let last = '';
  try {
    const { value: row, timedOut } = await pollUntil({
      clock: ctx.clock,
      budget: () => client.budget,
      signal: ctx.signal,
      timeoutMs,
      read: (call) => readRestore(ctx, siteId, restoreId, call),
      reconnect: new Reconnect({
        clock: ctx.clock,
        forMs: reconnectForMs,
        say: (line) => ctx.io.errLine(line),
        show: (text) => {
          if (text) spinner.line(undefined);
          spinner.update(text ?? label(last));
        },
      }),
      onRead: (r) => {
        spinner.update(label(restoreStatus(r)));
        counts(r);
        if (isFailed(r)) {
          throw new CliError(
            `Storage restore ${sanitizeInline(restoreId)} ended with status ${sanitizeInline(restoreStatus(r))}; see \`${statusCmd}\`.`,
            { restore: r },
          );
        }
      },
      done: isCompleted,
      changed: (r, polls) => {
        const status = restoreStatus(r);
        const changed = polls > 1 && status !== last;
        last = status;
        return changed;
      },
    });
    if (timedOut) {
      throw new PendingError(
        `Storage restore ${sanitizeInline(restoreId)} is still ${sanitizeInline(restoreStatus(row))} after ${formatElapsed(timeoutMs)} (--timeout); it goes on. Check it with \`${statusCmd}\`.`,
        {
          restore: row,
        },
      );
    }
    return row;
  } catch (err) {
    if (err instanceof ConnectionLostError)
      throw new PendingError(
        `${err.message} Stopped following; storage restore ${sanitizeInline(restoreId)} may go on. Follow it with \`${waitCmd}\`.`,
        { restoreId, reason: 'connection_lost' },
      );
    if (ctx.signal.aborted)
      throw new InterruptedError(`Stopped following; the restore goes on. Check it with \`${statusCmd}\`.`, {
        restoreId,
      });
    throw err;
  } finally {
    spinner.stop();
  }
}
