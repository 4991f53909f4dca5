// Which run of a site is the latest, and what it left waiting, from sources that cannot mislead
// (docs/real-service.md "Chat, replies and runs"): the run --job names, the runs this CLI started
// or followed, and history records that carry both a job id and a time. Never a position in a
// page: the order inside a page of list_messages is not stated. Then one get_job on that run.
// Cost before a message is sent: one list_messages and at most one get_job.
import { answerList } from '../../api/answer.js';
import { POLL_TIMING } from '../../api/poll.js';
import type { KnownRun } from '../../config/runs.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import type { Question } from '../../service/events.js';
import { readJobAnswer } from '../../service/job.js';
import type { Read } from '../../service/read.js';
import { applyAnswer, initialRunState, outcomeOf, planOf } from '../../render/reducer.js';
import { runsOfSite } from '../job/known-runs.js';
import { type HistoryRun, historyRuns } from '../message/history.js';

/** A site's latest run and what it left waiting for a reply, if anything. */
export interface LatestRun {
  jobId: string;
  /** Its state while it goes on (running, stalled), or how it ended (question, plan: waiting). */
  outcome: string;
  question?: Question;
  plan?: Read<string>;
}

/** What is known about the latest run: the run, or why it cannot be told. */
export type WhatWaits = { known: true; run: LatestRun } | { known: false; why: string };

/** Where the candidates for the latest run come from; read once per command. */
export interface RunSources {
  history: HistoryRun[];
  /** The history's first page is an empty list with nothing before it: no conversation yet. */
  noHistory?: boolean;
  known: KnownRun[];
}

export type Choice =
  | {
      jobId: string;
      source: 'job' | 'known' | 'history';
      /** A message this CLI queued after that run: once the run has ended, the queue may have started another. */
      queuedSince?: string;
    }
  | { none: true }
  | { unknown: string }
  | { notLatest: string; latest: string; by: 'history' | 'known' };

/**
 * The latest run among the candidates, or why it cannot be told. The history's times rule where
 * it names runs with them (the first page is the newest, as the service states); otherwise the
 * runs started here, newest first. A run named with --job is believed unless one of those sources
 * puts a newer run after it. A site without any history and no run known here has nothing waiting:
 * a question is part of the chat history.
 */
export function chooseLatest({ history, noHistory, known }: RunSources, job?: string): Choice {
  if (history.length > 0) {
    const top = history.filter((r) => r.at === history[0].at);
    if (top.length > 1) {
      if (job && top.some((r) => r.jobId === job)) return { jobId: job, source: 'job' };
      return { unknown: 'its history names several runs at the same newest time' };
    }
    if (!job || job === top[0].jobId) return { jobId: top[0].jobId, source: job ? 'job' : 'history' };
    return { notLatest: job, latest: top[0].jobId, by: 'history' };
  }
  const newest = known[0];
  if (!newest) {
    if (job) return { jobId: job, source: 'job' };
    if (noHistory) return { none: true };
    return { unknown: 'no run of it is known here, and its history names none with a time' };
  }
  if (job && !known.some((r) => r.jobId === job)) return { jobId: job, source: 'job' };
  // Messages queued from here after the newest run: that run stays the latest while it goes on.
  const run = known.find((r) => !r.queued);
  const queuedSince = newest.queued ? newest.jobId : undefined;
  if (!run)
    return { unknown: `a message sent from here was queued (${sanitizeInline(newest.jobId)}) and may have run since` };
  if (job && job !== run.jobId) return { notLatest: job, latest: run.jobId, by: 'known' };
  return { jobId: run.jobId, source: job ? 'job' : 'known', ...(queuedSince && { queuedSince }) };
}

/** The history's first page (one call) and the runs known here. A history that cannot be read as a list names no run. */
export async function readRunSources(ctx: Context, site: string): Promise<RunSources> {
  const result = await ctx.api().call('list_messages', { projectId: site }, { signal: ctx.signal });
  let records: unknown[] | undefined;
  try {
    records = answerList('list_messages', result);
  } catch {
    records = undefined;
  }
  const data = result.envelope.data as { hasMore?: unknown } | null;
  const noHistory = records !== undefined && records.length === 0 && data?.hasMore !== true;
  return { history: historyRuns(records ?? []), noHistory, known: runsOfSite(ctx, site) };
}

/** One get_job on the run, from the start: how it stands and what it left waiting. */
export async function readRun(ctx: Context, site: string, jobId: string): Promise<LatestRun> {
  const { envelope } = await ctx
    .api()
    .call('get_job', { projectId: site, jobId, cursor: 0 }, { signal: ctx.signal, retryFloorMs: POLL_TIMING.floorMs });
  const state = applyAnswer(initialRunState(jobId), readJobAnswer(envelope.data)).state;
  const outcome = outcomeOf(state);
  if (outcome === 'question') return { jobId, outcome, question: state.question };
  if (outcome === 'plan') return { jobId, outcome, plan: planOf(state) };
  return { jobId, outcome: outcome === 'ongoing' ? state.state : outcome };
}

/**
 * Reads the chosen run. A run the user named must exist (its 404 is the error); one taken from
 * the history or the runs known here that cannot be read leaves the latest run unknown.
 */
export async function whatWaits(
  ctx: Context,
  site: string,
  choice: Extract<Choice, { jobId: string }>,
): Promise<WhatWaits> {
  try {
    const run = await readRun(ctx, site, choice.jobId);
    // A failed or cancelled run stops the queue (the service states it); after any other end,
    // what was queued behind it may have started a run whose id nobody told us.
    if (choice.queuedSince && !['running', 'stalled', 'failed', 'cancelled'].includes(run.outcome))
      return {
        known: false,
        why: `a message sent from here was queued (${sanitizeInline(choice.queuedSince)}) behind run ${sanitizeInline(run.jobId)}, which has ended, so it may have started a run since`,
      };
    return { known: true, run };
  } catch (err) {
    if (choice.source === 'job' || !(err instanceof ApiError) || err.status !== 404) throw err;
    return {
      known: false,
      why: `its latest ${choice.source === 'known' ? 'run known here' : 'run in its history'}, ${sanitizeInline(choice.jobId)}, cannot be read (404)`,
    };
  }
}
