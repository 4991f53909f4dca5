// The minute's budget as the answers tell it (docs/real-service.md "Rate limits"): what their
// X-RateLimit-* headers say is left, and how long a 429 of that budget asks to be waited. The
// client keeps the one (client.ts `budget`) and tells a gate the other (call.ts `CallGate`);
// retry-call.ts waits it out.
import type { IncomingHttpHeaders } from 'node:http';
import type { RateBudget } from './call.js';
import { header, num } from './headers.js';
import { TRANSPORT_BOUNDS } from './transport.js';

/**
 * The budget of the minute as the answer's X-RateLimit-* headers tell it, taken at `now`;
 * undefined when the answer carries none. The service's seconds are wall seconds: a clock run
 * `wallSpeed` times faster (the emulator's --speed) counts that many of its own.
 */
export function readBudget(h: IncomingHttpHeaders, wallSpeed: number, now: number): RateBudget | undefined {
  const limit = num(header(h, 'x-ratelimit-limit'));
  const remaining = num(header(h, 'x-ratelimit-remaining'));
  const reset = num(header(h, 'x-ratelimit-reset'));
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  // The minute is 60 seconds long: a reset outside it is not believed.
  const resetSeconds = reset === undefined ? undefined : Math.min(60, Math.max(0, reset * wallSpeed));
  return { limit, remaining, resetSeconds, at: now };
}

/**
 * How long a 429 is waited: Retry-After exactly (`retryAfter`, in seconds), else a sane
 * X-RateLimit-Reset, else a fallback; never less than the floor. The service's seconds are wall
 * seconds: a clock run `wallSpeed` times faster counts that many of its own.
 */
export function rateLimitWait(retryAfter: number | undefined, headers: IncomingHttpHeaders, wallSpeed: number): number {
  let ms: number;
  if (retryAfter !== undefined) ms = retryAfter * 1000 * wallSpeed;
  else {
    const reset = num(header(headers, 'x-ratelimit-reset'));
    ms =
      reset !== undefined && reset > 0 && reset <= 60
        ? reset * 1000 * wallSpeed
        : TRANSPORT_BOUNDS.retryAfterFallbackMs;
  }
  return Math.ceil(Math.max(TRANSPORT_BOUNDS.retryAfterFloorMs, ms));
}
