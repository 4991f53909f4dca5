// The headers of an answer the client reads: one value of a header, a number in one, and the
// Retry-After of a refusal, as docs/real-service.md "Rate limits" describes it (what the minute's
// budget and a 429 make of them: rate-limit.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { parseTime } from '../service/time.js';

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
