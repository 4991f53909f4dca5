// The headers of an answer the client reads: one value of a header, a number in one, the
// Retry-After of a refusal and the minute's budget (X-RateLimit-*), as docs/real-service.md
// "Rate limits" describes them.
import type { IncomingHttpHeaders } from 'node:http';
import { parseTime } from '../service/time.js';
import type { RateBudget } from './call.js';

/** The header's value (the first, when it was sent several times). */
export const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** A finite number, or undefined for an empty or malformed value. */
export const num = (v: string | undefined): number | undefined => {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** Retry-After as seconds from now (seconds, or an HTTP date); undefined when malformed. May be negative. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^[-+]?\d+(\.\d+)?$/.test(v)) return Number(v);
  const date = /[a-z]/i.test(v) ? (parseTime(v) ?? Number.NaN) : Number.NaN;
  return Number.isFinite(date) ? (date - now) / 1000 : undefined;
}

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
