// Follows a publish with get_publish_status until `running` is false, polling adaptively
// (every few seconds, slower when the budget runs low) on the injected clock. Returns the last
// record; on --timeout it returns it with `timedOut` so the caller can print it and exit 8. A
// lost service is tried again for `reconnectForMs` (api/poll.ts Reconnect); giving up throws
// PendingError (exit 8) with the command that follows the publish again.
import type { ApiClient } from '../../api/client.js';
import { ConnectionLostError, pollUntil, Reconnect } from '../../api/poll.js';
import type { Clock } from '../../clock.js';
import { InterruptedError, PendingError } from '../../errors.js';
import { statusRecord, type PublishRecord } from '../../service/publish.js';
import { flag, sb } from '../../io/shell.js';

export interface WaitForPublishOptions {
  client: ApiClient;
  clock: Clock;
  siteId: string;
  /** Give up waiting (the publish goes on) after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The record from publish_site, so fields the status lacks (the address) are kept. */
  started?: Partial<PublishRecord>;
  /** Added to the error when a status answer has no `running` (what happened to the publish). */
  afterMalformed?: string;
  /** Called after every status read (the spinner shows the status). */
  onStatus?: (record: PublishRecord) => void;
  /** How long a lost service is tried again (default RECONNECT.forMs). */
  reconnectForMs?: number;
  /** A line for stderr (connection lost, back). */
  say: (line: string, kind?: 'lost' | 'back') => void;
  /** The spinner's label while the connection is lost; undefined gives it back. */
  show?: (label: string | undefined) => void;
  /** The lane of its polls at the client's gate (many sites at once: api/scheduler.ts). */
  lane?: string;
  /**
   * The first status is read a floor after the start rather than at once (many sites at once:
   * a read right after the start only spends the budget). It is read all the same: whether
   * publish_site's answer says `running` is not shown.
   */
  firstReadAfterFloor?: boolean;
}

/** The command that follows a publish again. */
export const publishWatchCommand = (siteId: string): string => sb('publish status', siteId, flag('--wait'));

export interface WaitResult {
  record: PublishRecord;
  timedOut: boolean;
  polls: number;
}

/** What is known of a publish just started, before its first status. */
function statusFallback(siteId: string, started: Partial<PublishRecord> | undefined): PublishRecord {
  return {
    siteId,
    running: true,
    status: null,
    url: null,
    deploymentId: null,
    startedAt: null,
    finishedAt: null,
    error: null,
    ...started,
  };
}

export async function waitForPublish(o: WaitForPublishOptions): Promise<WaitResult> {
  try {
    const {
      value: record,
      timedOut,
      polls,
    } = await pollUntil({
      clock: o.clock,
      budget: () => o.client.budget,
      // A publish's phases say nothing about when it ends, so the interval does not shrink when
      // the status changes: 2 s, then stretching to 5 s (the service asks for every few seconds).
      fastMs: 2_000,
      idleMs: 5_000,
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      lane: o.lane,
      ...(o.firstReadAfterFloor && { initial: { ...statusFallback(o.siteId, o.started), running: true } }),
      read: async (call) =>
        statusRecord(
          o.siteId,
          await o.client.call('get_publish_status', { projectId: o.siteId }, { signal: o.signal, ...call }),
          o.started,
          o.afterMalformed,
        ),
      reconnect: new Reconnect({ clock: o.clock, forMs: o.reconnectForMs, say: o.say, show: o.show }),
      onRead: (record) => o.onStatus?.(record),
      done: (record) => !record.running,
      changed: (_record, polls) => polls <= 1,
    });
    return { record, timedOut, polls };
  } catch (err) {
    if (err instanceof ConnectionLostError)
      throw new PendingError(
        `${err.message} Stopped waiting; the publish of ${o.siteId} may go on. Follow it with \`${publishWatchCommand(o.siteId)}\`.`,
        { siteId: o.siteId, reason: 'connection_lost' },
      );
    if (o.signal?.aborted) {
      throw new InterruptedError(
        `Stopped waiting; the publish of ${o.siteId} goes on. Check it with \`${sb('publish status', o.siteId)}\`.`,
        { siteId: o.siteId },
      );
    }
    throw err;
  }
}
