// What waits on a site: decided from what no shape of an answer can mislead (docs/real-service.md
// "What waits on a site"): get_job of a known run (its state and events, as stated), the runs this
// CLI started or followed (config/runs.ts), and whether the chat history changed since this CLI
// saw a run end, told by the fingerprints of the first page's records (service/messages.ts)
// without reading any field of them. No record is placed in time and no job id is read from the
// history: where this is not enough, the latest run is *unknown*, never "nothing newer".
// Cost before a message is sent: one list_messages and at most one get_job.
import { POLL_TIMING } from '../../../api/poller.js';
import type { KnownRun } from '../../../config/runs.js';
import type { Context } from '../../../context.js';
import { ApiError } from '../../../errors.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { applyAnswer, initialRunState, outcomeOf, planOf } from '../../../render/reducer.js';
import type { Question } from '../../../service/events.js';
import { readJobAnswer } from '../../../service/job.js';
import { compareHistory, type HistoryPage, readHistoryPage } from '../../../service/messages.js';
import type { Read } from '../../../service/read.js';
import { forgetStaleRuns, runsOfSite } from './known-runs.js';

/** A run of the site, and what it left waiting for a reply, if anything. */
export interface LatestRun {
  jobId: string;
  /** Its state while it goes on (running, stalled, or one the reference does not list), or how it ended. */
  outcome: string;
  question?: Question;
  plan?: Read<string>;
}

export type Decision =
  /** No conversation yet: the history's first page is empty (a question is part of the chat history). */
  | { kind: 'none' }
  /** The latest run is known, and so is what it left waiting. */
  | { kind: 'known'; run: LatestRun }
  /** It cannot be told; `run` is the run it would be, read with get_job, when there is one. */
  | { kind: 'unknown'; why: string; run?: LatestRun }
  /** --job names a run older than one this CLI started after it. */
  | { kind: 'notLatest'; named: string; latest: string };

const ONGOING = new Set(['running', 'stalled']);
const ENDED = new Set(['succeeded', 'failed', 'cancelled', 'question', 'plan']);

export const leavesWaiting = (run: LatestRun): boolean => Boolean(run.question) || run.plan !== undefined;

/**
 * A run going on: in a state the reference lists as ongoing, or in one it does not list without
 * having asked anything. Nothing waits for a reply then.
 */
export const goesOn = (run: LatestRun): boolean =>
  ONGOING.has(run.outcome) || (!ENDED.has(run.outcome) && !leavesWaiting(run));

/** A run in a state the reference does not list that showed a question or plan: whether it waits is the service's to say. */
export const unlisted = (run: LatestRun): boolean =>
  !ONGOING.has(run.outcome) && !ENDED.has(run.outcome) && leavesWaiting(run);

const inUnlistedState = (run: LatestRun): Decision => ({
  kind: 'unknown',
  why: `run ${q(run.jobId)} is in the state ${q(run.outcome)}, which the service's reference does not list`,
  run,
});

/** One get_job on the run, from the start: how it stands and what it left waiting. */
export async function readRun(ctx: Context, site: string, jobId: string): Promise<LatestRun> {
  const { envelope } = await ctx
    .api()
    .call('get_job', { projectId: site, jobId, cursor: 0 }, { signal: ctx.signal, retryFloorMs: POLL_TIMING.floorMs });
  const state = applyAnswer(initialRunState(jobId), readJobAnswer(envelope.data)).state;
  const outcome = outcomeOf(state);
  if (outcome === 'question') return { jobId, outcome, question: state.question };
  if (outcome === 'plan') return { jobId, outcome, plan: planOf(state) };
  if (outcome !== 'ongoing' || ONGOING.has(state.state))
    return { jobId, outcome: outcome === 'ongoing' ? state.state : outcome };
  // A state the reference does not list: a question or plan it already showed may be what it waits on.
  return {
    jobId,
    outcome: state.state,
    ...(state.question ? { question: state.question } : state.planRequested ? { plan: planOf(state) } : {}),
  };
}

/** The history's first page (one call), fingerprinted. */
export async function readHistory(ctx: Context, site: string): Promise<HistoryPage> {
  const { envelope } = await ctx.api().call('list_messages', { projectId: site }, { signal: ctx.signal });
  return readHistoryPage(envelope.data);
}

const q = sanitizeInline;

/** A run remembered here that the service says it does not have (get_job: 404): the memory is stale. */
class StaleRun extends Error {
  constructor(readonly jobId: string) {
    super(`run ${jobId} is not on the service`);
  }
}

/** readRun of a run remembered here: its 404 is a StaleRun, not the command's failure. */
async function readRemembered(ctx: Context, site: string, jobId: string): Promise<LatestRun> {
  try {
    return await readRun(ctx, site, jobId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw new StaleRun(jobId);
    throw err;
  }
}

/**
 * Since a run this CLI saw end: the history unchanged gives what it left; changed, unknown. A
 * changed history is said only of a run the service has (one get_job): a run it does not have is
 * stale memory (an emulator started afresh), not something that happened since.
 */
async function sinceSeen(
  ctx: Context,
  site: string,
  run: KnownRun,
  page: HistoryPage,
  named = false,
): Promise<Decision> {
  const seen = run.seen!;
  const { same, unseen } = compareHistory(seen.prints, page.prints);
  const read = named ? readRun : readRemembered;
  const asked = seen.outcome === 'question' || seen.outcome === 'plan';
  const left: LatestRun = asked ? await read(ctx, site, run.jobId) : { jobId: run.jobId, outcome: seen.outcome };
  if (same) return { kind: 'known', run: left };
  // Named with --job, the run was read already.
  if (!asked && !named) await read(ctx, site, run.jobId);
  const what = unseen
    ? `${unseen} record${unseen === 1 ? '' : 's'} of its chat history ${unseen === 1 ? 'was' : 'were'} not there when run ${q(run.jobId)} ended`
    : `its chat history changed since run ${q(run.jobId)} ended`;
  return { kind: 'unknown', why: `${what}: something happened since`, run: left };
}

/** The run --job names: believed as the latest unless this CLI started a newer one after it. */
async function decideNamed(
  ctx: Context,
  site: string,
  job: string,
  page: HistoryPage,
  known: KnownRun[],
): Promise<Decision> {
  const at = known.findIndex((r) => r.jobId === job);
  const newer = at > 0 ? known.slice(0, at).find((r) => !r.queued) : undefined;
  if (newer) return { kind: 'notLatest', named: job, latest: newer.jobId };
  const entry = known[at];
  // The user's run must exist: its 404 is the answer.
  const run = await readRun(ctx, site, job);
  if (goesOn(run)) return { kind: 'known', run };
  if (unlisted(run)) return inUnlistedState(run);
  if (entry?.seen) return sinceSeen(ctx, site, entry, page, true);
  if (!leavesWaiting(run)) return { kind: 'known', run };
  return {
    kind: 'unknown',
    why: `this CLI has not seen its chat history since run ${q(job)} ended, so it may have been answered since`,
    run,
  };
}

/**
 * What waits on the site, from the sources above. A run named with --job is the user's word for
 * the latest run; without it, the newest run known here, checked against the history.
 */
export async function decide(ctx: Context, site: string, job?: string): Promise<Decision> {
  const page = await readHistory(ctx, site);
  const known = runsOfSite(ctx, site);
  if (job !== undefined) return decideNamed(ctx, site, job, page, known);
  if (page.empty) return { kind: 'none' };
  if (!known[0]) return { kind: 'unknown', why: 'no run of it was started or followed from here' };
  try {
    return await decideRemembered(ctx, site, page, known);
  } catch (err) {
    if (!(err instanceof StaleRun)) throw err;
    // Stale memory is not a reason to fail, nor to believe nothing waits: as with no run known.
    await forgetStaleRuns(ctx, site, err.jobId);
    return { kind: 'unknown', why: 'no run of it known here is on the service' };
  }
}

/** The newest run remembered here, checked against the history; a run the service lacks throws StaleRun. */
async function decideRemembered(ctx: Context, site: string, page: HistoryPage, known: KnownRun[]): Promise<Decision> {
  const latest = known[0]!;
  // A message queued from here: the run before it stays the latest while it goes on.
  const run = latest.queued ? known.find((r) => !r.queued) : latest;
  if (!run)
    return { kind: 'unknown', why: `a message sent from here was queued (${q(latest.jobId)}) and may have run since` };
  // Seen after every message queued from here: nothing they started is missed by the comparison.
  if (run.seen && (!latest.queued || run.seen.at >= latest.startedAt)) return sinceSeen(ctx, site, run, page);
  const read = await readRemembered(ctx, site, run.jobId);
  if (goesOn(read)) return { kind: 'known', run: read };
  if (unlisted(read)) return inUnlistedState(read);
  if (latest.queued)
    return {
      kind: 'unknown',
      why: `a message sent from here was queued (${q(latest.jobId)}) behind run ${q(run.jobId)}, which has ended, so it may have started a run since`,
    };
  return {
    kind: 'unknown',
    why: `run ${q(run.jobId)} ended while this CLI was not following it, so what happened since is not known`,
    run: read,
  };
}
