// Pages for the listing patterns of the methods the service names in passing (docs/emulator.md
// "Listing conventions"), and the hourly/minute quotas some of them carry. Our choices where
// the service leaves it open (docs/emulator.md): items under data.items, the paging fields
// beside them in data; cursors and tokens are opaque and bound to the other arguments ("keep
// other arguments the same"), so a cursor sent with different filters is refused with 400.
import { createHash } from 'node:crypto';
import { refuse } from '../../refusal.js';
import type { Args, HandlerResult } from '../../host.js';

export const PAGE_MAX = 100;

const fingerprint = (args: Args, drop: string[]) => {
  const rest = Object.entries(args)
    .filter(([k]) => !drop.includes(k))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 8);
};

function encode(prefix: string, offset: number, args: Args, drop: string[]): string {
  return `${prefix}${Buffer.from(`${offset}.${fingerprint(args, drop)}`).toString('base64url')}`;
}

function decode(prefix: string, value: string, args: Args, drop: string[], name: string, answered: string): number {
  const bad = (why: string): never =>
    refuse(400, `\`${name}\` ${why}; send back the ${answered} of the previous page.`, { code: 'bad_cursor' });
  if (!value.startsWith(prefix)) bad(`"${value}" is not a ${name} this method gave`);
  const [offset, print] = Buffer.from(value.slice(prefix.length), 'base64url').toString('utf8').split('.');
  if (!/^\d+$/.test(offset ?? '')) bad(`"${value}" is not a ${name} this method gave`);
  if (print !== fingerprint(args, drop))
    bad('belongs to a listing with other arguments (keep the other arguments the same)');
  return Number(offset);
}

const sizeOf = (args: Args, fallback: number) => Math.min(args.limit ?? fallback, PAGE_MAX);

/** next cursor: `cursor` in, data.nextCursor out (null at the end). */
export function cursorPage<T>(all: T[], args: Args, fallback: number, noun: string): HandlerResult {
  const start =
    args.cursor === undefined
      ? 0
      : decode('cur_', String(args.cursor), args, ['cursor', 'limit'], 'cursor', 'nextCursor');
  const end = start + sizeOf(args, fallback);
  const items = all.slice(start, end);
  const nextCursor = end < all.length ? encode('cur_', end, args, ['cursor', 'limit']) : null;
  return {
    data: { items, nextCursor },
    message: `${items.length} ${noun}${nextCursor ? ', more after this page' : ''}.`,
  };
}

/** token: `token` in, data.nextToken out (null at the end). */
export function tokenPage<T>(all: T[], args: Args, fallback: number, noun: string): HandlerResult {
  const start =
    args.token === undefined ? 0 : decode('tok_', String(args.token), args, ['token', 'limit'], 'token', 'nextToken');
  const end = start + sizeOf(args, fallback);
  const items = all.slice(start, end);
  const nextToken = end < all.length ? encode('tok_', end, args, ['token', 'limit']) : null;
  return {
    data: { items, nextToken },
    message: `${items.length} ${noun}${nextToken ? ', more after this page' : ''}.`,
  };
}

/** offset and count: data is the page, the envelope's count the total. */
export function offsetPage<T>(all: T[], args: Args, fallback: number, noun: string): HandlerResult {
  const offset = args.offset ?? 0;
  const items = all.slice(offset, offset + sizeOf(args, fallback));
  return { data: items, count: all.length, message: `${items.length} of ${all.length} ${noun}.` };
}

/** offset with hasMore: data.hasMore and data.nextOffset (null at the end). */
export function offsetHasMorePage<T>(all: T[], args: Args, fallback: number, noun: string): HandlerResult {
  const offset = args.offset ?? 0;
  const end = offset + sizeOf(args, fallback);
  const items = all.slice(offset, end);
  const hasMore = end < all.length;
  return {
    data: { items, hasMore, nextOffset: hasMore ? end : null },
    message: `${items.length} ${noun}${hasMore ? ', more after this page' : ''}.`,
  };
}

/** page numbers from 1: data.page, data.totalPages; a page past the end is empty. */
export function numberedPage<T>(all: T[], args: Args, size: number, noun: string): HandlerResult {
  const page = args.page ?? 1;
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const items = all.slice((page - 1) * size, page * size);
  return {
    data: { items, page, totalPages, pageSize: size },
    count: all.length,
    message: `Page ${page} of ${totalPages}: ${items.length} ${noun}.`,
  };
}

/** "12 minutes", "40 seconds": how long to wait, in words. */
export function waitWords(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

/**
 * A sliding-window quota: `times` holds when each counted use happened (mutated, pruned).
 * Returns null when one more use fits, else the ms until the oldest use leaves the window.
 */
export function quotaWait(times: number[], now: number, windowMs: number, max: number): number | null {
  while (times.length && times[0] <= now - windowMs) times.shift();
  return times.length < max ? null : times[0] + windowMs - now;
}
