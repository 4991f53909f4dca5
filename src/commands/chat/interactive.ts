// `sitebuilder chat <site>` in a terminal: a prompt loop. Each message starts (or queues) a run
// that is rendered live; questions and plans are answered with a select. /exit or Ctrl-D leaves
// (an empty line sends nothing and leaves nothing: what was kept stays kept); /plan toggles plan
// mode; /cancel stops the site's run; /queue shows the queue; /resume runs a stopped queue.
// During a run, Esc cancels it (asked first) and the conversation goes on; Ctrl-C stops following
// and leaves with 130, the run going on (commands/shared/run/run-keys.ts). A line that looks meant for the shell
// (`clear`, `cd ..`) or a slash command mistyped is asked about before it is sent (shell-like.ts).
// A question or plan left waiting (by an earlier run, or put off with Esc or
// Decide later) is said once with what the next message does to it and the ways out, and the
// prompt says it too; /reply asks it again. What is typed during a run becomes the next message's
// text, never an answer to a question or a plan. When the latest run cannot be told, the first
// message is confirmed (shared/conversation/waiting.ts).
import type { Context } from '../../context.js';
import { ApiError, ExitCode, InterruptedError } from '../../errors.js';
import { forgetTypeAhead, keepTypeAhead, peekTypeAhead, withKeysGuarded } from '../../io/keyguard.js';
import { EndOfInputError, EscapeError } from '../../errors.js';
import { readResumeAnswer } from '../../service/chat.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { displayWidth } from '../../io/width.js';
import { style } from '../../io/style.js';
import { agentText } from '../../render/agent-text.js';
import type { Pending } from '../../render/run-view.js';
import { answerLines, waitingOn } from '../shared/run/next-steps.js';
import { rememberSiteRun } from '../shared/run/known-runs.js';
import { printQueue } from '../shared/queue.js';
import { askPlan, askQuestion, type NextMessage } from '../shared/conversation/answers.js';
import type { ReplyTo } from '../shared/conversation/reply-key.js';
import { oddLine, slashTypo } from './shell-like.js';
import { followToEnd, runTurn, type TurnResult } from '../shared/conversation/turn.js';
import { waitingAtStart } from '../shared/conversation/waiting.js';

const HELP =
  'Type a message for the agent. /plan toggles plan mode · /queue shows the queue · /resume runs a stopped queue · /cancel stops the run · /exit or Ctrl-D leaves. During a run, Esc cancels it (asks first) · Ctrl-C stops following (the run goes on).';

/** The slash commands, for "did you mean". */
const COMMANDS = ['/plan', '/queue', '/resume', '/cancel', '/reply', '/help', '/exit', '/quit'] as const;

/** Kept text, as quoted in a sentence. */
const quoted = (text: string) => `“${sanitizeInline(text.length > 40 ? `${text.slice(0, 39)}…` : text)}”`;

/** What a confirmation line holds beside its question: `? `, ` › ` and `(y/N)`, and the cursor. */
const CONFIRM_DECORATION = 11;

/**
 * A line that looks meant for something else: sent only when confirmed (Esc or Ctrl-C: not sent).
 * Where the whole question does not fit one line, the reason is said above it, folded at word
 * boundaries (errLine), and the question stays short: a terminal folds a waiting prompt mid-word.
 */
async function confirmOdd(ctx: Context, why: string): Promise<boolean> {
  const ask = 'Send it to the agent anyway?';
  let question = `${why}. ${ask}`;
  if (displayWidth(question) + CONFIRM_DECORATION > ctx.io.columns) {
    ctx.io.errLine(`${sanitizeInline(why)}.`);
    question = ask;
  }
  let yes = false;
  try {
    yes = await ctx.prompter.confirm(question, false);
  } catch (err) {
    if (!(err instanceof InterruptedError)) throw err;
  }
  if (!yes) ctx.io.errLine('Not sent. /help lists the commands; /exit leaves.');
  return yes;
}

async function cancelSiteRun(ctx: Context, projectId: string): Promise<void> {
  try {
    const { envelope } = await ctx.api().call('cancel_job', { projectId }, { signal: ctx.signal });
    ctx.io.errLine(sanitizeInline(envelope.message || 'Cancelled.'));
  } catch (err) {
    // A refusal (409: nothing runs; a missing scope…) is said, and the conversation goes on.
    if (!(err instanceof ApiError)) throw err;
    ctx.io.errLine(
      err.status === 409
        ? sanitizeInline(err.serviceMessage || 'Nothing is running; nothing was cancelled.')
        : `Could not cancel: ${err.message}`,
    );
  }
}

/** /resume: runs the stopped queue; answers the run it started, when the service names it. */
async function resumeQueue(ctx: Context, projectId: string): Promise<string | undefined> {
  try {
    const { envelope } = await ctx.api().call('resume_queue', { projectId }, { signal: ctx.signal });
    const { started } = readResumeAnswer(envelope.data);
    const jobId = typeof started === 'object' ? started.jobId : undefined;
    ctx.io.errLine(sanitizeInline(envelope.message || 'The queue runs again.'));
    if (jobId) await rememberSiteRun(ctx, projectId, { jobId });
    return jobId;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ctx.io.errLine(`Could not resume the queue: ${err.message}`);
    return undefined;
  }
}

/** Leaving: text typed during a run and not yet shown at a prompt is said, never dropped unseen. */
function sayNotSent(ctx: Context): void {
  const kept = peekTypeAhead(ctx.io);
  if (kept) ctx.io.errLine(`Not sent: what you typed during the run (${quoted(kept)}).`);
}

/** What the next message does to what waits, and the ways out: said once, when it starts to wait. */
function sayWaiting(ctx: Context, w: Pending, mode: 'build' | 'plan'): void {
  ctx.io.errLine(
    w.kind === 'question'
      ? 'The question still waits: your next message is taken as its answer. /reply picks an answer · /exit leaves it waiting.'
      : `The plan still waits: your next message ${mode === 'plan' ? 'is taken as a revision of it' : 'approves it and builds it, with your words added'}. /reply decides · /plan ${mode === 'plan' ? 'leaves plan mode (approve)' : 'enters plan mode (revise)'} · /exit leaves it waiting.`,
  );
}

/** What the message prompt is called: it says what a message does now. */
function promptLabel(plan: boolean, w: Pending | undefined): string {
  if (w?.kind === 'question') return 'You (answers the question)';
  if (w?.kind === 'plan') return plan ? 'You (revises the plan)' : 'You (approves the plan)';
  return plan ? 'You (plan mode)' : 'You';
}

/** Leaving while something waits: the commands that answer it later. */
function sayLeftWaiting(ctx: Context, w: Pending): void {
  ctx.io.errLine(`The ${w.kind} still waits; answer it later with one of:`);
  for (const line of answerLines(w)) ctx.io.errLine(line);
}

/** What a message sent while `w` waits answers (its Idempotency-Key: shared/conversation/reply-key.ts). */
const replyOf = (w: Pending): ReplyTo => ({ jobId: w.jobId, kind: w.kind });

const ask = (ctx: Context, w: Pending): Promise<NextMessage | undefined> =>
  w.kind === 'question' ? askQuestion(ctx, { question: w.question, options: w.options }) : askPlan(ctx);

/** The first message, when what waits cannot be told; Esc declines. */
async function confirmFirst(ctx: Context): Promise<boolean> {
  try {
    return await ctx.prompter.confirm('Send it?', true);
  } catch (err) {
    if (err instanceof InterruptedError) return false;
    throw err;
  }
}

export async function interactiveChat(
  ctx: Context,
  projectId: string,
  opts: { plan: boolean; timeoutMs?: number; reconnectForMs?: number },
): Promise<number> {
  const c = style(ctx.io);
  let plan = opts.plan;
  /** The question or plan that the next message answers, if any. */
  let waiting: Pending | undefined;
  ctx.io.errLine(`${c.bold(`Chatting with the agent of ${sanitizeInline(projectId)}.`)} ${c.dim(HELP)}`);
  /**
   * A run's end: what it left waiting when the answer was put off is said; the exit code when its
   * run was detached from (the conversation ends with it).
   */
  const ended = (r: TurnResult): number | undefined => {
    waiting = r.pending;
    if (waiting) sayWaiting(ctx, waiting, plan ? 'plan' : 'build');
    return r.detached ? r.exitCode : undefined;
  };
  /**
   * One turn; the exit code when its run was detached from. A refusal (queue full, no credits…)
   * ends the turn, not the conversation.
   */
  const turn = async (next: NextMessage, replyTo?: ReplyTo): Promise<number | undefined> => {
    try {
      waiting = undefined;
      return ended(
        await runTurn(ctx, {
          projectId,
          ...next,
          replyTo,
          follow: true,
          timeoutMs: opts.timeoutMs,
          reconnectForMs: opts.reconnectForMs,
          conversation: true,
        }),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.io.errLine(`error: ${err.message}`);
      return undefined;
    }
  };
  /** Follows a run the conversation did not send (the one /resume started), as a turn. */
  const follow = async (jobId: string): Promise<number | undefined> => {
    const { result, next, replyTo } = await followToEnd(ctx, projectId, jobId, {
      timeoutMs: opts.timeoutMs,
      remember: false,
      reconnectForMs: opts.reconnectForMs,
      conversation: true,
    });
    if (next) return turn(next, replyTo);
    return ended(result);
  };
  // Keys typed while the conversation starts are kept for the first message, as during a run.
  forgetTypeAhead(ctx.io);
  const start = await withKeysGuarded(ctx.io, ctx.interrupts, () => waitingAtStart(ctx, projectId));
  let unconfirmed = start === 'unknown' && !ctx.globals.yes;
  if (start && start !== 'unknown') {
    const what = waitingOn(projectId, start.jobId, start);
    ctx.io.errLine(`The agent's ${what.kind} from run ${sanitizeInline(start.jobId)} still waits:`);
    if (what.kind === 'plan' && what.plan) ctx.io.outLine(await agentText(ctx.io, what.plan, 'stdout', ctx.signal));
    const next = await ask(ctx, what);
    const detached = next ? await turn(next, replyOf(what)) : ended({ exitCode: ExitCode.ok, pending: what });
    if (detached !== undefined) return detached;
  }
  let keptSaid = '';
  for (;;) {
    let line: string;
    try {
      // Text typed during a run is a message: it waits while a question or plan waits, never its
      // answer; that it waits is said once, so that it is no surprise on the prompt after.
      const kept = waiting ? peekTypeAhead(ctx.io) : '';
      if (kept && kept !== keptSaid) {
        keptSaid = kept;
        ctx.io.errLine(`What you typed during the run (${quoted(kept)}) is kept for the message after this reply.`);
      }
      line = (await ctx.prompter.input(promptLabel(plan, waiting), { typeAhead: !waiting })).trim();
    } catch (err) {
      if (err instanceof EndOfInputError) line = '/exit';
      else if (err instanceof EscapeError) {
        // Esc cancels a run; at the prompt there is none: the line stays as it was typed.
        keepTypeAhead(ctx.io, err.typed);
        ctx.io.errLine(c.dim('Nothing runs to cancel. /exit or Ctrl-D leaves.'));
        continue;
      } else if (err instanceof InterruptedError) {
        sayNotSent(ctx);
        return ExitCode.interrupted;
      } else throw err;
    }
    if (line === '') {
      // Nothing to send, and nothing dropped: what was kept stays kept.
      const kept = peekTypeAhead(ctx.io);
      ctx.io.errLine(
        c.dim(
          `Nothing sent.${kept ? ` Still kept for your next message: ${quoted(kept)}.` : ''} /exit or Ctrl-D leaves.`,
        ),
      );
      continue;
    }
    if (line === '/exit' || line === '/quit') {
      sayNotSent(ctx);
      if (waiting) sayLeftWaiting(ctx, waiting);
      return ExitCode.ok;
    }
    if (line === '/plan') {
      plan = !plan;
      ctx.io.errLine(
        plan
          ? 'Plan mode: the agent writes a plan and changes nothing until you approve it.'
          : 'Build mode: the agent changes the site.',
      );
      if (waiting?.kind === 'plan') sayWaiting(ctx, waiting, plan ? 'plan' : 'build');
      continue;
    }
    if (line === '/reply') {
      if (!waiting) {
        ctx.io.errLine('Nothing waits for a reply.');
        continue;
      }
      const w: Pending = waiting;
      const next = await ask(ctx, w);
      const detached = next ? await turn(next, replyOf(w)) : undefined;
      if (detached !== undefined) return detached;
      continue;
    }
    if (line === '/queue') {
      await printQueue(ctx, projectId, { conversation: true });
      continue;
    }
    if (line === '/resume') {
      const jobId = await resumeQueue(ctx, projectId);
      const detached = jobId ? await follow(jobId) : undefined;
      if (detached !== undefined) return detached;
      continue;
    }
    if (line === '/cancel') {
      await cancelSiteRun(ctx, projectId);
      continue;
    }
    if (line === '/help') {
      ctx.io.errLine(HELP);
      continue;
    }
    if (/^\/\w+$/.test(line)) {
      const near = slashTypo(line, COMMANDS);
      ctx.io.errLine(`Unknown command ${line}${near ? `; did you mean ${near}?` : '.'} Nothing was sent. ${HELP}`);
      continue;
    }
    const odd = oddLine(line, COMMANDS);
    if (odd && !(await confirmOdd(ctx, odd))) continue;
    if (unconfirmed) {
      if (!(await confirmFirst(ctx))) {
        ctx.io.errLine('Not sent.');
        continue;
      }
      unconfirmed = false;
    }
    const detached = await turn({ prompt: line, mode: plan ? 'plan' : 'build' }, waiting && replyOf(waiting));
    if (detached !== undefined) return detached;
  }
}
