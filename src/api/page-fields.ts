// What a page of a listing says about the next one. The reference names the paging fields of
// the six patterns (`count`, `hasMore`, `nextOffset`'s value, `nextCursor`, `nextToken`,
// `oldestCursor`) but not their types, and names no total for page numbers, so each is read
// under its name and the obvious alternatives (docs/real-service.md "Listing and paging").
// Cursors, tokens and a next offset or page handed back by the service are opaque: sent back
// exactly as they came, text or a number.
import type { Envelope } from './call.js';
import type { ListingPattern } from './registry-terms.js';
import { PAGE_FIELDS } from '../service/page.js';

type Args = Record<string, unknown>;

export { PAGE_FIELDS };

type FieldName = keyof typeof PAGE_FIELDS;

/** A paging field in data (when it is an object) or on the envelope; `found` even when null. */
export function pageField(env: Envelope, name: FieldName): { found: boolean; value: unknown; as?: string } {
  const data = env.data;
  const places = [data && typeof data === 'object' && !Array.isArray(data) ? (data as Args) : undefined, env as Args];
  for (const place of places) {
    if (!place) continue;
    for (const key of PAGE_FIELDS[name]) if (key in place) return { found: true, value: place[key], as: key };
  }
  return { found: false, value: undefined };
}

/** A count or a page number: a number, or text holding one. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

const absent = (v: unknown) => v === undefined || v === null || v === '';

/** What a page says of the next: its arguments, or the end. */
export type Verdict =
  | {
      next: Args;
      /** The page's own fields said more follow (not a guess from its length). */
      stated: boolean;
    }
  | {
      end: true;
      /** Why the end is not certain: the listing may be incomplete (an error, not a normal end). */
      problem?: string;
    };

export interface PageProgress {
  /** Records on this page. */
  received: number;
  /** Records on the earlier pages of this listing; undefined when not known (a page shown alone). */
  before?: number;
  /** The longest earlier page (0 on the first). */
  longest: number;
}

/**
 * Given a page and the arguments that fetched it, the next page's arguments or the end. Without
 * a total, an offset or page-numbered listing goes on until an empty page or a page shorter than
 * an earlier one; a cursor listing ends where its cursor does.
 */
export function decideNext(pattern: ListingPattern, args: Args, env: Envelope, p: PageProgress): Verdict {
  const hasMore = pageField(env, 'hasMore').value;
  const byLength = (next: Args): Verdict =>
    p.received === 0 || p.received < p.longest ? { end: true } : { next, stated: false };
  switch (pattern) {
    case 'offset':
    case 'offsetHasMore': {
      const offset = numberOf(args.offset) ?? 0;
      const given = pageField(env, 'nextOffset');
      const computed = { ...args, offset: offset + p.received };
      if (hasMore === false) return { end: true };
      if (given.found && absent(given.value)) return { end: true };
      const next = given.found ? { ...args, offset: given.value } : computed;
      if (hasMore === true) return { next, stated: true };
      const count = numberOf(pageField(env, 'count').value);
      if (count !== undefined) return offset + p.received >= count ? { end: true } : { next, stated: true };
      return given.found ? { next, stated: true } : byLength(next);
    }
    case 'nextCursor':
    case 'token':
    case 'backwards': {
      const [field, arg] =
        pattern === 'token'
          ? (['nextToken', 'token'] as const)
          : pattern === 'backwards'
            ? (['oldestCursor', 'cursor'] as const)
            : (['nextCursor', 'cursor'] as const);
      const cursor = pageField(env, field);
      if (hasMore === false) return { end: true };
      if (!absent(cursor.value)) return { next: { ...args, [arg]: cursor.value }, stated: true };
      const said = PAGE_FIELDS[field][0];
      if (hasMore === true)
        return { end: true, problem: `says more follow (hasMore) but sent no ${said} to ask for them` };
      // A full page that names no cursor at all (not even null): a cursor under another name?
      const limit = numberOf(args.limit);
      if (!cursor.found && limit !== undefined && p.received >= limit)
        return {
          end: true,
          problem: `sent a full page of ${p.received} but no ${said}, so whether more follow is not known`,
        };
      return { end: true };
    }
    case 'page': {
      const page = numberOf(args.page) ?? 1;
      const nextPage = pageField(env, 'nextPage');
      if (hasMore === false || (nextPage.found && absent(nextPage.value))) return { end: true };
      const next = nextPage.found ? { ...args, page: nextPage.value } : { ...args, page: page + 1 };
      if (hasMore === true || nextPage.found) return { next, stated: true };
      const totalPages = numberOf(pageField(env, 'totalPages').value);
      if (totalPages !== undefined) return page >= totalPages ? { end: true } : { next, stated: true };
      const count = numberOf(pageField(env, 'count').value);
      if (count !== undefined && p.before !== undefined)
        return p.before + p.received >= count ? { end: true } : { next, stated: true };
      return byLength(next);
    }
  }
}

/** The pattern a page reveals by its fields (for a method the registry does not know); undefined: one page. */
export function detectPattern(env: Envelope): ListingPattern | undefined {
  if (pageField(env, 'nextCursor').found) return 'nextCursor';
  if (pageField(env, 'nextToken').found) return 'token';
  if (pageField(env, 'oldestCursor').found) return 'backwards';
  if (pageField(env, 'nextOffset').found || pageField(env, 'hasMore').found) return 'offsetHasMore';
  if (pageField(env, 'totalPages').found || pageField(env, 'nextPage').found) return 'page';
  if (numberOf(pageField(env, 'count').value) !== undefined) return 'offset';
  return undefined;
}
