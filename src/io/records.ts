// Times and tokens as printed. A time is parsed by the one time parser of the service model
// (src/service/time.ts); the fields of the service's records are read only there.
import { parseTime } from '../service/time.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Date.prototype.toISOString() written out: V8's own first loads time-zone data, about 0.3 ms of
 * an API command’s start-up (docs/architecture.md "Start-up"). Years outside 0–9999 take V8's (±YYYYYY).
 */
function toIso(d: Date): string {
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) return d.toISOString();
  return `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}

/**
 * A time as ISO-8601 (piped output): from a Date or a number of ms (a time the model parsed), or
 * text read by the one time parser; other text as it came.
 */
export function isoTime(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const ms = typeof value === 'number' ? value : value instanceof Date ? value.getTime() : parseTime(value);
  const d = new Date(ms ?? Number.NaN);
  return Number.isNaN(d.getTime()) ? String(value) : toIso(d);
}

/** "3 minutes ago" on a terminal; ISO when piped. */
export function humanTime(value: unknown, now: number, tty: boolean): string {
  const iso = isoTime(value);
  if (!tty || !iso) return iso;
  const diff = Math.round((now - new Date(iso).getTime()) / 1000);
  if (Number.isNaN(diff)) return iso;
  const abs = Math.abs(diff);
  const [n, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.floor(abs / 60), 'minute']
        : abs < 86400
          ? [Math.floor(abs / 3600), 'hour']
          : [Math.floor(abs / 86400), 'day'];
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}
