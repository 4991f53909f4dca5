// Follows a publish with get_publish_status until `running` is false, polling adaptively
// (every few seconds, slower when the budget runs low) on the injected clock. Returns the last
// record; on --timeout it returns it with `timedOut` so the caller can print it and exit 8.
import type { ApiClient } from '../../api/client.js';
import { pollUntil } from '../../api/poll.js';
import type { Clock } from '../../clock.js';
import { InterruptedError } from '../../errors.js';
import { statusRecord, type PublishRecord } from './record.js';

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
}

export interface WaitResult {
  record: PublishRecord;
  timedOut: boolean;
  polls: number;
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
      read: async () =>
        statusRecord(
          o.siteId,
          await o.client.call('get_publish_status', { projectId: o.siteId }, { signal: o.signal }),
          o.started,
          o.afterMalformed,
        ),
      onRead: (record) => o.onStatus?.(record),
      done: (record) => !record.running,
      changed: (_record, polls) => polls === 1,
    });
    return { record, timedOut, polls };
  } catch (err) {
    if (o.signal?.aborted) {
      throw new InterruptedError(
        `Stopped waiting; the publish of ${o.siteId} goes on. Check it with \`sitebuilder publish status ${o.siteId}\`.`,
        { siteId: o.siteId },
      );
    }
    throw err;
  }
}
