// One site of `chat` with several sites, exactly as for one site but asking nothing: what waits
// on its latest run is checked (a site where a question or plan waits, or where that cannot be
// told, gets nothing without --yes and is reported with the commands that answer, naming the run
// with --job); the message is sent and its run followed quietly in its own lane of the scheduler
// until it ends. A question or plan at the end is reported with its reply commands.
import { pollUntil, Reconnect } from '../../api/poll.js';
import type { Context } from '../../context.js';
import {
  ApiError,
  CliError,
  ConfirmationNeededError,
  ExitCode,
  PendingError,
  PlanPendingError,
  QuestionPendingError,
} from '../../errors.js';
import type { Prompter } from '../../io/prompter.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import { formatElapsed } from '../../io/spinner.js';
import {
  applyAnswer,
  creditsOfRun,
  failureMessage,
  initialRunState,
  isEnded,
  outcomeOf,
  type RunState,
} from '../../render/reducer.js';
import type { Pending } from '../../render/run-view.js';
import { readJobAnswer } from '../../service/job.js';
import { type ReplyTo, replyKey, replyRefused } from '../shared/conversation/reply-key.js';
import { type Mode, sendMessage } from '../shared/conversation/send.js';
import { confirmNewMessage } from '../shared/conversation/waiting.js';
import type { SiteOutcome } from '../shared/fleet/outcome.js';
import type { SiteRow } from '../shared/fleet/run.js';
import { watchCommand } from '../shared/run/follow.js';
import { noteRunEnd } from '../shared/run/known-runs.js';
import { agentAsks, pendingOf, waitingOn } from '../shared/run/next-steps.js';
import type { ChatOptions } from './options.js';

/** Per site, nothing is asked: a site that would need a prompt is reported and skipped. */
const NO_PROMPTS: Prompter = {
  canPrompt: () => false,
  require(what, flagHint) {
    throw new ConfirmationNeededError(`${what} needs an answer and no prompt is possible here; ${flagHint}.`);
  },
  input: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  password: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  confirm: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  select: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
  multiselect: () => Promise.reject(new ConfirmationNeededError('No prompt with several sites.')),
};

/** The question a site waits on, with its options numbered as the --choose commands below it pick them. */
function askedNote(pending: Pending | undefined): string {
  if (pending?.kind !== 'question') return 'The agent asks a question.';
  const options = pending.options.map((o, i) => `${i + 1}. ${sanitizeInline(o)}`).join(' · ');
  return `${agentAsks(pending.question)}${options ? ` Options (the --choose commands below pick them): ${options}` : ''}`;
}

/** The commands that answer what waits on run `jobId`, each naming it with --job (--choose first where there are options). */
function replyCommands(site: string, jobId: string, kind: 'question' | 'plan', options: string[] = []): string[] {
  const w = waitingOn(site, jobId, kind === 'question' ? { question: { question: '', options } } : { plan: '' });
  return w.kind === 'question' ? w.answer : [w.approve, w.revise];
}

interface Followed {
  state: RunState;
  timedOut: boolean;
}

/** Follows the run quietly (the batch shows rows, not transcripts), in its own lane. */
async function followRun(ctx: Context, site: string, jobId: string, o: ChatOptions, row: SiteRow): Promise<Followed> {
  let state = { ...initialRunState(jobId), state: 'running' };
  // A run just started is busy: its first read comes after the busy wait, not the idle one.
  let changed = true;
  const r = await pollUntil<RunState>({
    clock: ctx.clock,
    signal: ctx.signal,
    timeoutMs: o.timeout ?? Number.POSITIVE_INFINITY,
    lane: `job:${site}:${jobId}`,
    initial: state,
    read: async (call) => {
      const { envelope } = await ctx
        .api()
        .call('get_job', { projectId: site, jobId, cursor: state.cursor }, { signal: ctx.signal, ...call });
      const applied = applyAnswer(state, readJobAnswer(envelope.data));
      changed = applied.events.length > 0 || applied.stateChanged || applied.reset;
      state = applied.state;
      return state;
    },
    reconnect: new Reconnect({ clock: ctx.clock, forMs: o.reconnectFor, say: row.say }),
    onRead: (s) => row.state(s.state),
    done: (s) => isEnded(s.state),
    changed: () => changed,
  });
  if (!r.timedOut) await noteRunEnd(ctx, site, jobId, outcomeOf(r.value));
  return { state: r.value, timedOut: r.timedOut };
}

export async function chatOne(ctx: Context, o: ChatOptions, prompt: string, mode: Mode, site: string, row: SiteRow) {
  const startedAt = ctx.clock.now();
  let jobId: string | null = null;
  let state: RunState | undefined;
  const out = (outcome: string, exitCode: number, more: Partial<SiteOutcome> = {}): SiteOutcome => ({
    site,
    outcome,
    exitCode,
    ref: more.ref ?? jobId ?? '',
    note: more.note,
    next: more.next,
    record: {
      jobId,
      state: state?.state ?? null,
      creditsCharged: state ? (creditsOfRun(state) ?? null) : null,
      ...more.record,
    },
    elapsedMs: ctx.clock.now() - startedAt,
  });
  const siteCtx: Context = { ...ctx, prompter: NO_PROMPTS };
  row.state('checking');
  let replyTo: ReplyTo | undefined;
  try {
    replyTo = await confirmNewMessage(siteCtx, site, mode);
  } catch (err) {
    if (ctx.signal.aborted) return out('not-started', ExitCode.interrupted, { note: 'Not sent: interrupted first.' });
    const waitingRun = (err as CliError).details?.jobId;
    if ((err instanceof QuestionPendingError || err instanceof PlanPendingError) && typeof waitingRun === 'string') {
      const kind = err instanceof QuestionPendingError ? 'question' : 'plan';
      const options = (err as CliError).details?.options;
      return out('skipped', err.exitCode, {
        ref: waitingRun,
        // Short, beside a row: the commands that answer follow it (the single-site sentence holds them too).
        note: `Nothing was sent: a ${kind} waits on run ${sanitizeInline(waitingRun)}, and the agent would take the message as the reply (--yes sends it so).`,
        next: replyCommands(site, waitingRun, kind, Array.isArray(options) ? options.map(String) : []),
        record: { waiting: kind, jobId: waitingRun },
      });
    }
    if (err instanceof ConfirmationNeededError)
      return out('skipped', err.exitCode, { note: sanitizeInline(err.message) });
    if (err instanceof CliError) return out('refused', err.exitCode, { note: sanitizeInline(err.message) });
    throw err;
  }
  row.state('sending');
  let sent: Awaited<ReturnType<typeof sendMessage>>;
  try {
    try {
      sent = await sendMessage(
        siteCtx,
        site,
        prompt,
        mode,
        o.idempotencyKey === undefined ? replyTo && replyKey(siteCtx, site, replyTo) : `${o.idempotencyKey}-${site}`,
      );
    } catch (err) {
      throw replyTo && err instanceof ApiError ? await replyRefused(siteCtx, site, replyTo, err) : err;
    }
  } catch (err) {
    if (ctx.signal.aborted)
      return out('detached', ExitCode.interrupted, {
        note: `Interrupted while the message was being sent to ${site}; it may have been sent.`,
        next: [sb('message list', site)],
      });
    if (err instanceof CliError) return out('refused', err.exitCode, { note: sanitizeInline(err.message) });
    throw err;
  }
  if (sent.queued)
    return out('queued', o.follow === false ? ExitCode.ok : ExitCode.pending, {
      ref: sent.queueItemId,
      note: `The agent is busy: the message waits in the queue${sent.queuePosition === null ? '' : ` at position ${sent.queuePosition}`}; it runs on its own (do not send it again).`,
      next: [sb('queue list', site)],
      record: { queueItemId: sent.queueItemId, queuePosition: sent.queuePosition },
    });
  jobId = sent.jobId;
  const watch = [watchCommand(site, jobId)];
  if (o.follow === false) return out('started', ExitCode.ok, { next: watch });
  row.state('running');
  let lastSeen = 'running';
  let r: Followed;
  try {
    r = await followRun(ctx, site, jobId, o, {
      ...row,
      state: (t) => {
        lastSeen = t;
        row.state(t);
      },
    });
  } catch (err) {
    if (ctx.signal.aborted)
      return out('detached', ExitCode.interrupted, {
        note: `Stopped following; the run goes on (last seen: ${sanitizeInline(lastSeen)}).`,
        next: watch,
      });
    if (err instanceof PendingError)
      return out('pending', ExitCode.pending, { note: sanitizeInline(err.message), next: watch });
    if (err instanceof CliError) return out('failed', err.exitCode, { note: sanitizeInline(err.message), next: watch });
    throw err;
  }
  state = r.state;
  if (r.timedOut)
    return out('pending', ExitCode.pending, {
      note: `Stopped following after ${formatElapsed(ctx.clock.now() - startedAt)} (--timeout); the run goes on.`,
      next: watch,
    });
  const pending = pendingOf(state, site, jobId);
  switch (outcomeOf(state)) {
    case 'question':
      return out('question', ExitCode.questionPending, {
        note: askedNote(pending),
        next: pending?.kind === 'question' ? pending.answer : replyCommands(site, jobId, 'question'),
        record: { pending: pending ?? null },
      });
    case 'plan':
      return out('plan', ExitCode.planPending, {
        note: 'Its plan waits for approval.',
        next: replyCommands(site, jobId, 'plan'),
        record: { pending: pending ?? null },
      });
    case 'failed':
      return out('failed', ExitCode.jobFailed, {
        note: sanitizeInline(failureMessage(state)),
        record: { error: state.error ?? null },
      });
    case 'cancelled':
      return out('cancelled', ExitCode.failure, { note: 'The run was cancelled (not from here).' });
    default:
      return out('succeeded', ExitCode.ok);
  }
}
