// Following a run: get_job from a cursor with adaptive polling (quick after events, slower
// while idle, slower still when the budget runs low), each answer through the reducer into a
// view. Ctrl-C: with onInterrupt 'cancel' the first press sends cancel_job and the next
// detaches; with 'detach' the first detaches. Used by chat, job watch and site create.
import { AdaptivePoller } from '../../api/poll.js';
import type { Context } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { guardKeys } from '../../io/keyguard.js';
import {
  applyAnswer,
  initialRunState,
  isEnded,
  outcomeOf,
  type JobAnswer,
  type Outcome,
  type RunState,
} from '../../render/reducer.js';
import type { RunView } from '../../render/run-view.js';
import { shellQuote } from './commands.js';

export interface FollowOptions {
  projectId: string;
  jobId: string;
  view: RunView;
  /** Stop following after this long (exit 8); undefined: until the run ends. */
  timeoutMs?: number;
  /** Attaching to a run that may have gone on for a while: summarize the first answer. */
  recap?: boolean;
  onInterrupt?: 'cancel' | 'detach';
}

export interface FollowResult {
  state: RunState;
  outcome: Outcome | 'detached' | 'timeout';
  /** The user pressed Ctrl-C and the run was cancelled because of it. */
  cancelledByUser: boolean;
  /** cancel_job was sent (detaching after it: the run may be cancelled or go on). */
  cancelSent: boolean;
  elapsedMs: number;
  calls: number;
}

export function watchCommand(projectId: string, jobId: string): string {
  return `sitebuilder job watch ${shellQuote(projectId)} ${shellQuote(jobId)}`;
}

export async function followJob(ctx: Context, o: FollowOptions): Promise<FollowResult> {
  const client = ctx.api();
  const poller = new AdaptivePoller({ clock: ctx.clock, budget: () => client.budget });
  const started = ctx.clock.now();
  let state = initialRunState(o.jobId);
  let presses = 0;
  let cancelSent = false;
  let detached = false;
  let calls = 0;
  let wake = new AbortController();
  const release = ctx.interrupts.handle(() => {
    presses++;
    if (o.onInterrupt === 'cancel' && presses === 1) o.view.status('Cancelling the run (Ctrl-C again to detach)');
    else detached = true;
    wake.abort();
  });
  const keys = guardKeys(ctx.io, ctx.interrupts);
  const onOuterAbort = () => {
    detached = true;
    wake.abort();
  };
  ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
  const finish = (outcome: FollowResult['outcome']): FollowResult => ({
    state,
    outcome,
    cancelledByUser: cancelSent && state.state === 'cancelled',
    cancelSent,
    elapsedMs: ctx.clock.now() - started,
    calls,
  });
  try {
    await o.view.begin(o.projectId, o.jobId);
    let first = true;
    for (;;) {
      if (wake.signal.aborted) wake = new AbortController();
      if (presses > 0 && o.onInterrupt === 'cancel' && !cancelSent) {
        cancelSent = true;
        // A second press aborts it: a slow cancel must not hold the user. Whether or not it
        // reached the service, the re-attach command shows how the run goes on. A run that
        // ended meanwhile answers 409: the next get_job shows how it ended.
        await client
          .call('cancel_job', { projectId: o.projectId, jobId: o.jobId }, { signal: wake.signal })
          .catch(() => undefined);
        if (wake.signal.aborted) wake = new AbortController();
      }
      if (detached) return finish('detached');
      let data: JobAnswer;
      try {
        calls++;
        const { envelope } = await client.call<JobAnswer>(
          'get_job',
          { projectId: o.projectId, jobId: o.jobId, cursor: state.cursor },
          { signal: wake.signal },
        );
        data = (envelope.data ?? {}) as JobAnswer;
      } catch (err) {
        if (wake.signal.aborted) {
          if (detached) return finish('detached');
          continue;
        }
        throw err;
      }
      const applied = applyAnswer(state, data);
      state = applied.state;
      const raw = Array.isArray(data.events) ? data.events : [];
      o.view.answer(applied, raw, { quiet: first && o.recap });
      if (first && o.recap) o.view.recap(state);
      first = false;
      if (isEnded(state.state)) return finish(outcomeOf(state));
      if (detached) return finish('detached');
      if (o.timeoutMs !== undefined && ctx.clock.now() - started >= o.timeoutMs) return finish('timeout');
      try {
        let delay = poller.next(applied.events.length > 0 || applied.stateChanged || applied.reset);
        if (o.timeoutMs !== undefined) delay = Math.min(delay, Math.max(0, started + o.timeoutMs - ctx.clock.now()));
        await ctx.clock.sleep(delay, wake.signal);
      } catch (err) {
        if (!wake.signal.aborted) throw err;
      }
    }
  } finally {
    keys.release();
    release();
    ctx.signal.removeEventListener('abort', onOuterAbort);
    o.view.stop();
  }
}

/** The exit code (README.md "Exit codes") for how a followed run ended. */
export function exitCodeOf(r: FollowResult): number {
  switch (r.outcome) {
    case 'succeeded':
      return ExitCode.ok;
    case 'question':
      return ExitCode.questionPending;
    case 'plan':
      return ExitCode.planPending;
    case 'failed':
      return ExitCode.jobFailed;
    case 'cancelled':
      return r.cancelledByUser ? ExitCode.interrupted : ExitCode.failure;
    case 'detached':
      return ExitCode.interrupted;
    case 'timeout':
    case 'ongoing':
      return ExitCode.pending;
  }
}
