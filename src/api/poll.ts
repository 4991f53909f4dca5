// Polling for get_job, get_publish_status and the storage restore status until they end, each
// read after the wait poller.ts decides (docs/real-service.md "Polling"). Time comes from the
// injected clock.
//
// Staying alive (Reconnect): a followed run, publish or restore outlives a lost service. Once a
// read fails for good (the client's own retries spent) with a failure that may pass, it says
// "Connection lost" once, tries again alone (one call a try) with a doubling wait that never
// goes under the floor, says when the connection is back, and gives up after a bounded time:
// the caller then detaches (exit 8) with the command that re-attaches. A refusal that will not
// change (400, 401, 403, 404…) is thrown back at once.
import type { Clock } from '../clock.js';
import { ApiError, type CliError, NetworkError, PendingError } from '../errors.js';
import type { CallOptions, RateBudget } from './call.js';
import { duration } from './errors.js';
import { AdaptivePoller, POLL_TIMING } from './poller.js';

export interface PollUntilOptions<T> {
  clock: Clock;
  budget?: () => RateBudget | undefined;
  fastMs?: number;
  idleMs?: number;
  signal?: AbortSignal;
  timeoutMs: number;
  /** A value already in hand (the answer that started the work): checked before the first read. */
  initial?: T;
  /** One read; `call` holds the client's options for it (Reconnect.callOptions, the lane's ticket). */
  read: (call: Pick<CallOptions, 'maxAttempts' | 'retryFloorMs' | 'ticket'>) => Promise<T>;
  /**
   * The lane of this poll at the client's gate (api/scheduler.ts), which then keeps the floor
   * from when each read went out and shares the budget among many runs: the budget's own
   * stretching of the wait is left to it.
   */
  lane?: string;
  /** Keeps reading across a lost service; without it, a failed read is thrown. */
  reconnect?: Reconnect;
  /** Called with each value read (show it; throw to stop, e.g. on a failure). */
  onRead?: (value: T, polls: number) => void;
  done: (value: T) => boolean;
  /** Whether the last read brought something new (polls: reads so far): the next wait is short then. */
  changed?: (value: T, polls: number) => boolean;
}

export interface PollUntilResult<T> {
  value: T;
  timedOut: boolean;
  polls: number;
}

/**
 * Reads until done or until timeoutMs has passed (the work goes on; the caller says so), waiting
 * adaptively between reads and never reading twice within the floor: at the deadline it reads a
 * last time only when the floor allows. An abort of the signal rejects with its reason. With
 * `reconnect`, a read that fails in a way that may pass is tried again; giving up throws
 * ConnectionLostError (exit 8).
 */
export async function pollUntil<T>(o: PollUntilOptions<T>): Promise<PollUntilResult<T>> {
  const deadline = o.clock.now() + o.timeoutMs;
  const poller = new AdaptivePoller({
    clock: o.clock,
    budget: o.lane === undefined ? o.budget : undefined,
    ...(o.fastMs !== undefined && { fastMs: o.fastMs }),
    ...(o.idleMs !== undefined && { idleMs: o.idleMs }),
  });
  let polls = 0;
  let last: T | undefined = o.initial;
  const read = async (): Promise<T> => {
    for (;;) {
      const readAt = o.clock.now();
      poller.markRead();
      let value: T;
      try {
        value = await o.read({
          ...o.reconnect?.callOptions(),
          ...(o.lane !== undefined && { ticket: { kind: 'poll' as const, lane: o.lane } }),
        });
      } catch (err) {
        if (!o.reconnect || o.signal?.aborted) throw err;
        const verdict = await o.reconnect.failed(err, { readAt, signal: o.signal, stopAt: deadline });
        if (verdict === 'retry') continue;
        if (verdict === 'give-up' || last === undefined) throw o.reconnect.givenUp();
        return last;
      }
      o.reconnect?.succeeded();
      polls++;
      last = value;
      o.onRead?.(value, polls);
      return value;
    }
  };
  let value = o.initial !== undefined ? o.initial : await read();
  for (;;) {
    if (o.done(value)) return { value, timedOut: false, polls };
    const left = deadline - o.clock.now();
    if (left <= 0) return { value, timedOut: true, polls };
    const wait = poller.next(o.changed?.(value, polls) ?? false);
    if (wait > left) {
      // A last read at the deadline, unless it would come within the floor of the previous one.
      await o.clock.sleep(left, o.signal);
      if (poller.untilAllowed() > 0) return { value, timedOut: true, polls };
      value = await read();
      continue;
    }
    await o.clock.sleep(wait, o.signal);
    value = await read();
  }
}

export const RECONNECT = {
  /** How long a lost service is tried again before giving up (--reconnect-for). */
  forMs: 5 * 60_000,
  /** The first wait before trying again; it doubles up to maxWaitMs, never under the poll floor. */
  firstWaitMs: 2_000,
  maxWaitMs: 30_000,
} as const;

/**
 * Whether a failed read may succeed later: the network failed (refused, reset, timed out), or
 * the service answered 5xx, 408 or 429, after the client's own retries. Anything else (400, 401,
 * 403, 404, a malformed answer) will not change by waiting.
 */
export function mayRecover(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.status >= 500 || err.status === 408 || err.status === 429);
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection broken',
  ETIMEDOUT: 'no answer in time',
  ENOTFOUND: 'address not found',
  EAI_AGAIN: 'name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function causeOf(err: unknown): string {
  if (err instanceof ApiError) return `HTTP ${err.status}`;
  const code = (err as Partial<CliError>).details?.code;
  return typeof code === 'string' && code ? (CAUSES[code] ?? code) : 'network error';
}

/** Given up after the connection was lost for the whole --reconnect-for: the work may go on (exit 8). */
export class ConnectionLostError extends PendingError {
  constructor(
    readonly lostForMs: number,
    readonly why: string,
  ) {
    super(`No connection to the service for ${duration(lostForMs)} (${why}).`, { reason: 'connection_lost' });
  }
}

export interface ReconnectOptions {
  clock: Clock;
  /** How long to keep trying once the connection is lost. */
  forMs?: number;
  /** A line for stderr: said once when the connection is lost, once when it is back (`kind` says which). */
  say: (line: string, kind: 'lost' | 'back') => void;
  /** A spinner's label while it waits, updated in place; undefined when the connection is back. */
  show?: (label: string | undefined) => void;
}

export type ReconnectVerdict = 'retry' | 'give-up' | 'deadline';

export class Reconnect {
  private lostAt?: number;
  private tries = 0;
  private cause = '';
  readonly forMs: number;

  constructor(private readonly o: ReconnectOptions) {
    this.forMs = Math.max(0, o.forMs ?? RECONNECT.forMs);
  }

  /** Whether the connection is lost now. */
  get lost(): boolean {
    return this.lostAt !== undefined;
  }

  /** The client's options for the next read: alone while the connection is lost (the waits are ours), and the floor. */
  callOptions(): Pick<CallOptions, 'maxAttempts' | 'retryFloorMs'> {
    return { retryFloorMs: POLL_TIMING.floorMs, ...(this.lost && { maxAttempts: 1 }) };
  }

  /** A read succeeded: a connection that was lost is back. */
  succeeded(): void {
    if (this.lostAt === undefined) return;
    const down = this.o.clock.now() - this.lostAt;
    this.lostAt = undefined;
    this.o.show?.(undefined);
    this.o.say(`Connection back after ${duration(roundSeconds(down))}; going on.`, 'back');
  }

  /** The error to give up with, once failed() said so. */
  givenUp(): ConnectionLostError {
    return new ConnectionLostError(roundSeconds(this.o.clock.now() - (this.lostAt ?? this.o.clock.now())), this.cause);
  }

  /**
   * A read that started at `readAt` failed. A refusal that will not change is thrown back.
   * Otherwise: 'retry' after the wait before the next try; 'give-up' once the connection has
   * been lost for forMs (no try left within it and the floor); 'deadline' at `stopAt` (the
   * caller's --timeout), reached while waiting. The signal (Ctrl-C) ends the wait by rejecting.
   */
  async failed(err: unknown, at: { readAt: number; signal?: AbortSignal; stopAt?: number }): Promise<ReconnectVerdict> {
    if (!mayRecover(err)) throw err;
    const { clock } = this.o;
    this.cause = causeOf(err);
    if (this.lostAt === undefined) {
      this.lostAt = at.readAt;
      this.tries = 0;
      this.o.say(
        this.forMs > 0
          ? `Connection lost (${this.cause}); retrying for up to ${duration(this.forMs)}.`
          : `Connection lost (${this.cause}).`,
        'lost',
      );
    }
    const now = clock.now();
    const giveUpAt = this.lostAt + this.forMs;
    const wait = Math.min(RECONNECT.maxWaitMs, RECONNECT.firstWaitMs * 2 ** this.tries++);
    const next = Math.max(Math.min(now + wait, giveUpAt), at.readAt + POLL_TIMING.floorMs);
    if (next > giveUpAt) return 'give-up';
    if (at.stopAt !== undefined && next > at.stopAt) {
      await clock.sleep(Math.max(0, at.stopAt - now), at.signal);
      return 'deadline';
    }
    this.o.show?.(`No connection (next try in ${duration(roundSeconds(next - now))})`);
    await clock.sleep(next - now, at.signal);
    return 'retry';
  }
}

const roundSeconds = (ms: number) => (ms >= 1000 ? Math.round(ms / 1000) * 1000 : ms);
