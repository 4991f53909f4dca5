// "Did you mean site_bakery?": for an argument that names no site, the ids of the sites the
// token reaches that are closest to it by edit distance (a letter missed, one too many, two
// swapped), or that hold it whole (`bakery`). One read of the workspaces and of their sites,
// bounded (SUGGEST_SITES_MAX ids at most); what cannot be read is left out: a suggestion is a
// help, never a reason to refuse or to send.
import { itemsOf, paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { refusalSubject, SITE_LIST_HINT } from '../../api/errors.js';
import { ApiError, CliError, requestNote } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { siteId, workspaceId } from '../../service/sites.js';

/** Site ids read at most for a suggestion. */
export const SUGGEST_SITES_MAX = 500;

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/** How far `id` is from what was typed; Infinity when too far to suggest. */
function closeness(typed: string, id: string): number {
  const t = typed.toLowerCase();
  const i = id.toLowerCase();
  if (t.length >= 3 && i.includes(t)) return 1;
  const d = editDistance(t, i);
  return d <= (t.length >= 6 ? 2 : 1) ? d : Number.POSITIVE_INFINITY;
}

/** The closest site ids to `typed` (at most three, the closest first), from the sites the token reaches. */
export async function similarSites(ctx: Context, typed: string): Promise<string[]> {
  return closestIds(typed, await reachableSiteIds(ctx));
}

/** The closest of `ids` to `typed`: at most three, the closest first. */
export function closestIds(typed: string, ids: string[]): string[] {
  return ids
    .map((id) => ({ id, d: closeness(typed, id) }))
    .filter((c) => Number.isFinite(c.d) && c.id !== typed)
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((c) => c.id);
}

/**
 * A refusal of the service that it has no site of the id a call was about (404): the same
 * refusal (same exit code), its "site list" hint replaced with the closest ids the token
 * reaches ("Did you mean site_bakery?"), also in its details for --json. Anything else, or no
 * close id, is returned as it is.
 */
export async function withSiteSuggestion(ctx: Context, err: unknown): Promise<unknown> {
  if (!(err instanceof ApiError) || err.status !== 404 || !err.site || ctx.signal.aborted) return err;
  if (refusalSubject(err.serviceMessage) !== 'site') return err;
  const near = await similarSites(ctx, err.site).catch(() => []);
  if (near.length === 0) return err;
  const said = err.message.slice(0, err.message.length - requestNote(err.requestId).length).replace(SITE_LIST_HINT, '');
  const told = err.withSentence(`${said.trimEnd()} Did you mean ${near.map(sanitizeInline).join(' or ')}?`);
  told.details.suggestions = near;
  return told;
}

/** The ids of the sites the token reaches: one read of the workspaces and of their sites, at most SUGGEST_SITES_MAX. */
export async function reachableSiteIds(ctx: Context): Promise<string[]> {
  const ids: string[] = [];
  // A listing refused or unreadable leaves the suggestion to what was read.
  const readable = async (read: () => Promise<void>) => {
    try {
      await read();
    } catch (err) {
      if (!(err instanceof CliError) || ctx.signal.aborted) throw err;
    }
  };
  let workspaces: string[] = [];
  await readable(async () => {
    const { envelope } = await ctx.api().call('list_workspaces', {}, { signal: ctx.signal });
    workspaces = itemsOf(envelope.data).map(workspaceId).filter(Boolean);
  });
  for (const ws of workspaces) {
    const left = SUGGEST_SITES_MAX - ids.length;
    if (left <= 0) break;
    await readable(async () => {
      const args = { workspaceId: ws };
      for await (const site of paginate(ctx.api(), 'list_sites', args, { max: left, signal: ctx.signal }))
        if (siteId(site)) ids.push(siteId(site));
    });
  }
  return ids;
}
