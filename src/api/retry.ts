// When a failed attempt of a call is tried again, and after how long (docs/scripting.md "How
// calls are made"): network errors and 5xx of calls safe to repeat, with jittered backoff and a
// time-out tried once more only; 429s of the minute's budget after their Retry-After, clamped
// (rate-limit.ts), a few times and within a total; a 409 "in flight" on our own key waited out for
// the first call's answer. The counts of one call live in Retries; retry-call.ts says what
// happens and sleeps.
import type { Envelope } from './call.js';
import { TRANSPORT_BOUNDS } from './transport.js';

/** Network failures where the request surely never reached the service. */
export const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** A 409 that says the first call with this key is still running at the service. */
export const isInFlight = (envelope: Envelope): boolean =>
  /idempotency|in flight/i.test(String(envelope.message ?? '')) ||
  (envelope.data as { reason?: unknown } | null)?.reason === 'idempotency-in-flight';

/** 0.4, 0.8, 1.6 … 8 seconds, less a jitter of up to a half. */
function backoff(attempt: number, random: () => number): number {
  const cap = Math.min(8_000, 400 * 2 ** (attempt - 1));
  return Math.floor(cap / 2 + random() * (cap / 2));
}

/** 1, 2, 4, 8, 8, … seconds (less a jitter of up to a quarter). */
function inFlightBackoff(poll: number, random: () => number): number {
  const cap = Math.min(8_000, 1_000 * 2 ** poll);
  return Math.floor(cap * (0.75 + random() * 0.25));
}

export interface RetryLimits {
  /** Tries after network errors and 5xx (1: none again). */
  maxAttempts: number;
  /** The longest all retries after network errors and 5xx may take together. */
  maxRetryTimeMs: number;
  /** The longest all 429 waits may take together. */
  maxRateLimitWaitMs: number;
  /** The longest a first call still in flight is waited for. */
  maxInFlightWaitMs: number;
  /** The shortest wait before a retry (a poller's floor). */
  floorMs: number;
  random: () => number;
}

/** The retries of one call: each method says how long to wait before the next try, or undefined for none. */
export class Retries {
  private failures = 0;
  private timeouts = 0;
  private rateRetries = 0;
  private rateWaited = 0;
  private inFlightSince?: number;
  private inFlightPolls = 0;

  constructor(
    private readonly limits: RetryLimits,
    private readonly started: number,
  ) {}

  /** A network error (`code`); `canRetry`: the call cannot be done twice, or surely was not sent. */
  afterNetworkError(code: string, canRetry: boolean, now: number): number | undefined {
    const { maxAttempts, maxRetryTimeMs } = this.limits;
    // A time-out already cost a whole deadline: one more try, not three.
    const mayRetry =
      code === 'ETIMEDOUT' ? this.timeouts < 1 && this.failures < maxAttempts - 1 : this.failures < maxAttempts - 1;
    if (!canRetry || !mayRetry || now - this.started >= maxRetryTimeMs) return undefined;
    this.failures++;
    if (code === 'ETIMEDOUT') this.timeouts++;
    return Math.max(backoff(this.failures, this.limits.random), this.limits.floorMs);
  }

  /** A 429 of the minute's budget that asks to wait `wait` ms: whether it is waited. */
  rateLimited(wait: number): boolean {
    if (
      this.rateRetries >= TRANSPORT_BOUNDS.rateLimitRetries ||
      this.rateWaited + wait > this.limits.maxRateLimitWaitMs
    )
      return false;
    this.rateRetries++;
    this.rateWaited += wait;
    return true;
  }

  /** A 409 in flight on our own key: the wait before asking again (`first`: the first such wait). */
  inFlight(now: number): { wait: number; first: boolean } | undefined {
    this.inFlightSince ??= now;
    const left = this.limits.maxInFlightWaitMs - (now - this.inFlightSince);
    if (left <= 0) return undefined;
    const first = this.inFlightPolls === 0;
    return { wait: Math.min(inFlightBackoff(this.inFlightPolls++, this.limits.random), left), first };
  }

  /** A 5xx of a call safe to repeat. */
  afterServerError(now: number): number | undefined {
    const wait = Math.max(backoff(this.failures + 1, this.limits.random), this.limits.floorMs);
    if (this.failures >= this.limits.maxAttempts - 1 || now - this.started + wait > this.limits.maxRetryTimeMs)
      return undefined;
    this.failures++;
    return wait;
  }
}
