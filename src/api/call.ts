// What a call of the service is to its callers: the answer's envelope and the result of a call,
// the options a call takes, the rate budget the client reads from the answers' headers, and
// what a gate (api/scheduler.ts) is. The client that makes the calls is client.ts.
import type { IncomingHttpHeaders } from 'node:http';
import type { SentListener } from './body-stream.js';

export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
  code: number;
  version?: string;
  count?: number;
  [extra: string]: unknown;
}

export interface CallResult<T = unknown> {
  envelope: Envelope<T>;
  status: number;
  headers: IncomingHttpHeaders;
  requestId?: string;
  attempts: number;
  idempotencyKey?: string;
}

export interface RateBudget {
  limit?: number;
  remaining?: number;
  /** Seconds until the minute ends, as of `at`. */
  resetSeconds?: number;
  at: number;
}

export interface CallOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Skip the registry's checks of stated arguments (the limits every body has still apply). */
  skipValidation?: boolean;
  /** Extra headers (the api passthrough's -H). */
  headers?: Record<string, string>;
  /** The shortest wait before a retry: a poller's floor (docs/real-service.md "Polling"). */
  retryFloorMs?: number;
  /** Tries of a call after network errors and 5xx (1: none again): a poller that retries on its own (api/poll.ts). */
  maxAttempts?: number;
  /** Its place in the queue of a gate (a poll of a run, a start); by default a write is a start, a read a call. */
  ticket?: CallTicket;
  /** Told as a streamed body (an argument that is a StreamedString: api/body-stream.ts) goes out. */
  onSent?: SentListener;
}

/** What a call is to a gate (api/scheduler.ts): the start of some work, another call, or a poll of one run (its lane). */
export interface CallTicket {
  kind: 'start' | 'call' | 'poll';
  /** The run, publish or restore a poll reads: its floor and its fair share are kept per lane. */
  lane?: string;
}

/**
 * Decides when each attempt of a call goes out (a process working on many sites shares one
 * budget: api/scheduler.ts). The function it gives is called once the attempt is over, with the
 * answer's status (undefined: no answer) and, on a 429 from the minute's budget (one with a
 * Retry-After), how long the service asked to wait.
 */
export interface CallGate {
  acquire(ticket: CallTicket, signal?: AbortSignal): Promise<CallOver>;
}

export type CallOver = (status?: number, retryAfterMs?: number) => void;
