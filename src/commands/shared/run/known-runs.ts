// The runs this CLI started or followed, per address, profile and site (src/config/runs.ts): a source for
// a site's latest run that no reshaped history can mislead (docs/real-service.md "Chat, replies
// and runs"). The file is a memory, not the command's work: when it cannot be read or written (a
// shared configuration directory, a lock held too long), a warning says so and the command goes on.
import { forgetRuns, type KnownRun, knownRuns, rememberRun, runsScope } from '../../../config/runs.js';
import type { Context } from '../../../context.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { type HistoryPage, readHistoryPage } from '../../../service/messages.js';

const why = (err: unknown) => sanitizeInline(err instanceof Error ? err.message : String(err));

/** The memory in force: the address and the profile in force (config/runs.ts runsScope). */
export const runsScopeOf = (ctx: Context): string => runsScope(ctx.profileName(), ctx.baseUrl());
const scope = runsScopeOf;

/** The runs known for the site, newest first; empty (with a warning) when the file cannot be read. */
export function runsOfSite(ctx: Context, site: string): KnownRun[] {
  try {
    return knownRuns(ctx.config, scope(ctx), site);
  } catch (err) {
    ctx.io.warn(`Could not read the runs started from here (${why(err)}); going on without them.`);
    return [];
  }
}

/** Remembers a run (or a queued message) of the site, now; a failure is a warning. */
export async function rememberSiteRun(ctx: Context, site: string, run: Omit<KnownRun, 'startedAt'>): Promise<void> {
  try {
    await rememberRun(ctx.config, scope(ctx), site, { ...run, startedAt: ctx.clock.now() }, { latest: true });
  } catch (err) {
    const what = run.queued ? `the queued message ${run.jobId}` : `run ${run.jobId}`;
    ctx.io.warn(
      `Could not remember ${sanitizeInline(what)} for later replies (${why(err)}); a reply to it needs --job.`,
    );
  }
}

/**
 * A run followed here ended: one list_messages, and the fingerprints of its first page are kept
 * with how the run ended. The same first page later means nothing happened on the site since
 * (docs/real-service.md "What waits on a site"). Best effort: without it, what waits later cannot
 * be told and is asked, never assumed.
 */
export async function noteRunEnd(ctx: Context, site: string, jobId: string, outcome: string): Promise<void> {
  // Before the call: a message queued from here while it is under way is not in what it reads.
  const at = ctx.clock.now();
  let page: HistoryPage;
  try {
    const { envelope } = await ctx.api().call('list_messages', { projectId: site }, { signal: ctx.signal });
    page = readHistoryPage(envelope.data);
  } catch (err) {
    ctx.debug(`the history after run ${jobId} could not be read (${why(err)}); what waits later will be asked`);
    return;
  }
  await rememberSiteRun(ctx, site, { jobId, seen: { outcome, at, prints: page.prints } });
}

/**
 * The service has no run `jobId` that this CLI remembers for the site (its get_job answered 404):
 * the memory is stale (an emulator started afresh, the service's data reset). It is forgotten,
 * said in one line on stderr, and the caller decides as with no run known here.
 */
export async function forgetStaleRuns(ctx: Context, site: string, jobId: string): Promise<void> {
  const where = sanitizeInline(ctx.baseUrl());
  // Said even under --json: stdout's contract is untouched, and the decision that follows differs.
  ctx.io.errLine(
    `warning: Run ${sanitizeInline(jobId)}, remembered here, is not on the service at ${where} (get_job: 404); forgetting the runs remembered for ${sanitizeInline(site)}.`,
  );
  try {
    await forgetRuns(ctx.config, scope(ctx), site);
  } catch (err) {
    ctx.debug(`the runs remembered for ${site} could not be forgotten (${why(err)})`);
  }
}
