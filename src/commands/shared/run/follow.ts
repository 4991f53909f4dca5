// Following a run: get_job from a cursor under the service's polling rule (src/api/poll.ts: never
// two polls within 2 s, about 3 s while the run is busy, slower while idle, slower still when the
// budget runs low), each answer through the reducer into a view, which may play it back over the
// wait. Ctrl-C stops following (the run goes on); Esc asks whether to cancel the run, and `y`
// sends cancel_job, after which the run is followed to its end (run-keys.ts). A lost service is tried again for a while (Reconnect in
// src/api/poll.ts), then the run is detached from (exit 8); a refusal of a read ends the follow
// with the refusal's exit code, the view's end line first. Used by chat, job watch and site create.
import { Reconnect } from '../../../api/poll.js';
import { AdaptivePoller } from '../../../api/poller.js';
import type { Context } from '../../../context.js';
import { ApiError, CliError, ExitCode } from '../../../errors.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import {
  applyAnswer,
  initialRunState,
  isEnded,
  outcomeOf,
  type JobAnswer,
  type Outcome,
  type RunState,
} from '../../../render/reducer.js';
import type { DetachReason, RunView } from '../../../render/run-view.js';
import { sb } from '../../../io/shell.js';
import { readCancelAnswer } from '../../../service/chat.js';
import { readJobAnswer } from '../../../service/job.js';
import { known } from '../../../service/read.js';
import { noteRunEnd, rememberSiteRun } from './known-runs.js';
import { takeRunKeys } from './run-keys.js';

export interface FollowOptions {
  projectId: string;
  jobId: string;
  view: RunView;
  /** Stop following after this long (exit 8); undefined: until the run ends. */
  timeoutMs?: number;
  /** Attaching to a run that may have gone on for a while: summarize the first answer. */
  recap?: boolean;
  /** A conversation's run: text typed meanwhile is kept for its next message, and that is said. */
  keepTyped?: boolean;
  /**
   * Remember the run as one of this CLI's (src/config/runs.ts): 'started' always (this CLI
   * started it), 'followed' only while it goes on (an old run attached to is not the latest).
   */
  remember?: 'started' | 'followed';
  /**
   * The run was started from here (chat, site create, queue resume): its end is noted with the
   * history as it then is (known-runs.ts noteRunEnd), even when the first read finds it ended.
   * Otherwise its end is noted only when the run was seen going on first.
   */
  startedHere?: boolean;
  /** How long a lost service is tried again before detaching (default RECONNECT.forMs). */
  reconnectForMs?: number;
}

export interface FollowResult {
  state: RunState;
  outcome: Outcome | 'detached' | 'timeout';
  /** The user asked for the cancel (Esc, y) and the run was cancelled. */
  cancelledByUser: boolean;
  /** cancel_job was sent and not refused (stopping to follow after it: the run may be cancelled or go on). */
  cancelSent: boolean;
  elapsedMs: number;
  /** The run's duration, followed from its start to its end (not when attached to it). */
  runMs?: number;
  /** Attached to a run that was going on: how long it was watched until its end. */
  watchedMs?: number;
  /** Why it was detached from. */
  reason?: DetachReason;
  /** A refusal of the service that ended the follow (thrown after the view's end line). */
  error?: CliError;
  calls: number;
}

export function watchCommand(projectId: string, jobId: string): string {
  return sb('job watch', projectId, jobId);
}

export async function followJob(ctx: Context, o: FollowOptions): Promise<FollowResult> {
  const client = ctx.api();
  const poller = new AdaptivePoller({ clock: ctx.clock, budget: () => client.budget });
  const started = ctx.clock.now();
  let state = initialRunState(o.jobId);
  let cancelSent = false;
  let cancelTried = false;
  let aborted = false;
  let calls = 0;
  let wake = new AbortController();
  const keys = takeRunKeys(ctx, {
    view: o.view,
    wake: () => wake.abort(),
    canCancel: () => !cancelTried,
    keepTyped: o.keepTyped,
  });
  const detached = () => aborted || keys.stop;
  const onOuterAbort = () => {
    aborted = true;
    wake.abort();
  };
  ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
  let endedAtFirst = false;
  const reconnect = new Reconnect({
    clock: ctx.clock,
    forMs: o.reconnectForMs,
    say: (line) => ctx.io.errLine(line),
    show: (label) => o.view.progress?.(label),
  });
  const finish = (outcome: FollowResult['outcome'], more: Partial<FollowResult> = {}): FollowResult => {
    const elapsedMs = ctx.clock.now() - started;
    const ended = isEnded(state.state);
    return {
      state,
      outcome,
      cancelledByUser: cancelSent && state.state === 'cancelled',
      cancelSent,
      elapsedMs,
      ...(ended && !o.recap && { runMs: elapsedMs }),
      ...(ended && o.recap && !endedAtFirst && { watchedMs: elapsedMs }),
      ...(outcome === 'detached' && { reason: 'interrupted' as const }),
      calls,
      ...more,
    };
  };
  /** Sleeps until `until` (clock time); false when woken by Ctrl-C. */
  const sleepUntil = async (until: number): Promise<boolean> => {
    const ms = until - ctx.clock.now();
    if (ms <= 0) return true;
    try {
      await ctx.clock.sleep(ms, wake.signal);
      return true;
    } catch (err) {
      if (!wake.signal.aborted) throw err;
      return false;
    }
  };
  const timeoutAt = o.timeoutMs === undefined ? Number.POSITIVE_INFINITY : started + o.timeoutMs;
  try {
    await o.view.begin(o.projectId, o.jobId);
    let first = true;
    for (;;) {
      if (wake.signal.aborted) wake = new AbortController();
      if (keys.cancel && !cancelTried && !detached()) {
        cancelTried = true;
        o.view.status('Cancelling the run');
        cancelSent = await cancelRun(ctx, o, wake.signal);
        if (wake.signal.aborted) wake = new AbortController();
      }
      if (detached()) return finish('detached');
      // The spec's rule: no two polls of a run closer than the floor, even right after a Ctrl-C.
      if (!(await sleepUntil(ctx.clock.now() + poller.untilAllowed()))) continue;
      let answer: JobAnswer;
      const readAt = ctx.clock.now();
      try {
        calls++;
        poller.markRead();
        const { envelope } = await client.call(
          'get_job',
          { projectId: o.projectId, jobId: o.jobId, cursor: state.cursor },
          // A retry (after a 500 or a dropped connection) is a poll too: the floor holds.
          { signal: wake.signal, ...reconnect.callOptions() },
        );
        answer = readJobAnswer(envelope.data);
      } catch (err) {
        if (wake.signal.aborted) {
          if (detached()) return finish('detached');
          continue;
        }
        let verdict: Awaited<ReturnType<Reconnect['failed']>>;
        try {
          verdict = await reconnect.failed(err, { readAt, signal: wake.signal, stopAt: timeoutAt });
        } catch (refusal) {
          if (wake.signal.aborted) continue;
          // A run never read leaves stdout empty: the refusal alone says what happened.
          if (first || !(refusal instanceof CliError)) throw refusal;
          return finish('detached', { reason: 'refused', error: refusal });
        }
        if (verdict === 'give-up') return finish('detached', { reason: 'connection_lost' });
        if (verdict === 'deadline') return finish('timeout');
        continue;
      }
      reconnect.succeeded();
      const applied = applyAnswer(state, answer);
      state = applied.state;
      const raw = answer.rawEvents;
      o.view.answer(applied, raw, { quiet: first && o.recap });
      if (first && o.recap) o.view.recap(state);
      if (first && o.remember && (o.remember === 'started' || !isEnded(state.state)))
        await rememberSiteRun(ctx, o.projectId, { jobId: o.jobId });
      if (first && isEnded(state.state)) endedAtFirst = true;
      first = false;
      if (isEnded(state.state)) {
        // A long last answer is rendered a little at a time: Ctrl-C is honoured meanwhile.
        await o.view.settle?.(wake.signal);
        if (o.startedHere || (o.remember === 'followed' && !endedAtFirst))
          await noteRunEnd(ctx, o.projectId, o.jobId, outcomeOf(state));
        return finish(outcomeOf(state));
      }
      if (detached()) return finish('detached');
      if (ctx.clock.now() >= timeoutAt) return finish('timeout');
      const until = Math.min(
        ctx.clock.now() + poller.next(applied.events.length > 0 || applied.stateChanged || applied.reset),
        timeoutAt,
      );
      await o.view.play?.(until, wake.signal);
      if (!(await sleepUntil(until))) continue;
      if (ctx.clock.now() >= timeoutAt) return finish('timeout');
    }
  } finally {
    keys.release();
    ctx.signal.removeEventListener('abort', onOuterAbort);
    o.view.stop();
  }
}

/**
 * Esc's cancel: cancel_job with the arguments the service shows (projectId; it stops the site's
 * running generation), never a guessed `jobId` (docs/real-service.md). A refusal is shown with
 * what to do next; Ctrl-C aborts the call and stops following. A run that ended meanwhile
 * answers 409: the next get_job shows how it ended.
 */
async function cancelRun(ctx: Context, o: FollowOptions, signal: AbortSignal): Promise<boolean> {
  try {
    const { envelope } = await ctx.api().call('cancel_job', { projectId: o.projectId }, { signal });
    const other = known(readCancelAnswer(envelope.data).jobId);
    o.view.cancelled({
      ok: true,
      message:
        other && other !== o.jobId
          ? `The service stopped run ${sanitizeInline(other)}, not ${sanitizeInline(o.jobId)}; this one is followed on (Ctrl-C stops following).`
          : 'Cancel sent; following the run until it stops (Ctrl-C stops following).',
    });
    return true;
  } catch (err) {
    // Aborted by Ctrl-C: it may have reached the service.
    if (signal.aborted) return true;
    if (!(err instanceof CliError)) throw err;
    const refused = err instanceof ApiError;
    const ended = refused && err.status === 409;
    // `job cancel` sends what this cancel sent: worth printing only where a retry may pass (no
    // answer, a failure of the service, the budget); a refusal of the request would come again.
    const retry = !refused || err.status >= 500 || err.status === 429 || err.status === 408;
    o.view.status(
      ended
        ? 'The run ended before the cancel arrived'
        : refused
          ? 'The cancel was refused; the run goes on'
          : 'The cancel was not confirmed',
    );
    o.view.cancelled({
      ok: false,
      message: ended
        ? `Nothing to cancel: ${sanitizeInline(err.serviceMessage || 'the run already ended')}`
        : `${refused ? 'The cancel was refused, so the run goes on' : 'The cancel could not be confirmed; the run may go on'}: ${err.message} Ctrl-C stops following${retry ? `; try again with: ${sb('job cancel', o.projectId)}` : '.'}`,
    });
    // A network failure may have come after the service took it.
    return !refused;
  }
}

/** The exit code (README.md "Exit codes") for how a followed run ended. */
export function exitCodeOf(r: FollowResult): number {
  if (r.error) return r.error.exitCode;
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
      // Never 1 for a run that may be fine: without a connection, it is still pending.
      return r.reason === 'connection_lost' ? ExitCode.pending : ExitCode.interrupted;
    case 'timeout':
    case 'ongoing':
      return ExitCode.pending;
  }
}
