// One turn of the conversation: send a message, follow its run, and when the run ends with a
// question or a plan, ask (when a prompt is possible) and go on with the answer. Without a
// prompt, the question or plan is printed with the exact commands that answer it, and the exit
// code says what waits (10 question, 11 plan).
import type { Context } from '../../../context.js';
import { ApiError, ExitCode } from '../../../errors.js';
import { agentLine } from '../../../render/agent-text.js';
import type { Pending } from '../../../render/run-view.js';
import { createRunView } from '../../../render/views.js';
import { agentAsks, answerLines, PLAN_NOT_SHOWN, pendingOf } from '../run/next-steps.js';
import { exitCodeOf, followJob, watchCommand } from '../run/follow.js';
import { sayStopped } from '../run/run-keys.js';
import { askPlan, askQuestion, type NextMessage } from './answers.js';
import { type ReplyTo, replyKey, replyRefused } from './reply-key.js';
import { reportQueued, reportStarted, sendMessage, type Mode } from './send.js';

export interface TurnOptions {
  projectId: string;
  prompt: string;
  mode: Mode;
  follow: boolean;
  /** Inside `chat <site>`'s conversation: what comes next is said with its slash commands. */
  conversation?: boolean;
  timeoutMs?: number;
  /** The user's --idempotency-key, for the first message. */
  idempotencyKey?: string;
  /** The question or plan the first message answers: its key is the reply's (reply-key.ts). */
  replyTo?: ReplyTo;
  /** --reconnect-for: how long a lost service is tried again. */
  reconnectForMs?: number;
}

export interface TurnResult {
  exitCode: number;
  /** The last run: its id and whether the user detached from it. */
  jobId?: string;
  detached?: boolean;
  /** What the run left waiting when the user put the answer off (Esc, Decide later): the caller says it. */
  pending?: Pending;
}

export async function runTurn(ctx: Context, o: TurnOptions): Promise<TurnResult> {
  let next: NextMessage | undefined = { prompt: o.prompt, mode: o.mode };
  let key = o.idempotencyKey;
  let replyTo = o.replyTo;
  let result: TurnResult = { exitCode: ExitCode.ok };
  while (next) {
    let sent: Awaited<ReturnType<typeof sendMessage>>;
    try {
      sent = await sendMessage(
        ctx,
        o.projectId,
        next.prompt,
        next.mode,
        key ?? (replyTo && replyKey(ctx, o.projectId, replyTo)),
      );
    } catch (err) {
      throw replyTo && err instanceof ApiError ? await replyRefused(ctx, o.projectId, replyTo, err) : err;
    }
    key = undefined;
    if (sent.queued) {
      reportQueued(ctx, o.projectId, sent, { stream: o.follow, conversation: o.conversation });
      if (o.follow && ctx.io.json)
        ctx.io.printJsonLine({
          type: 'end',
          projectId: o.projectId,
          jobId: null,
          state: 'queued',
          outcome: 'queued',
          exitCode: ExitCode.pending,
          creditsCharged: null,
          error: null,
          pending: null,
          reattach: null,
          reason: null,
        });
      return { exitCode: o.follow ? ExitCode.pending : ExitCode.ok };
    }
    if (!o.follow) {
      reportStarted(ctx, o.projectId, sent.jobId);
      return { exitCode: ExitCode.ok, jobId: sent.jobId };
    }
    // sendMessage remembered the run already.
    ({ result, next, replyTo } = await followToEnd(ctx, o.projectId, sent.jobId, {
      timeoutMs: o.timeoutMs,
      remember: false,
      reconnectForMs: o.reconnectForMs,
      conversation: o.conversation,
    }));
  }
  return result;
}

/**
 * Follows a started run to its end and prints how it ended. When it ended with a question or a
 * plan and a prompt is possible, returns the answer as `next` (the caller sends it); otherwise
 * prints the commands that answer. The run is remembered as started here unless the caller did.
 */
export async function followToEnd(
  ctx: Context,
  projectId: string,
  jobId: string,
  opts: { timeoutMs?: number; remember?: boolean; reconnectForMs?: number; conversation?: boolean } = {},
): Promise<{ result: TurnResult; next?: NextMessage; replyTo?: ReplyTo }> {
  const { timeoutMs, remember = true, reconnectForMs } = opts;
  const view = createRunView(ctx.io, ctx.clock, undefined, {
    redraw: ctx.env.TERM !== 'dumb',
    debug: (line) => ctx.debug(line),
  });
  const r = await followJob(ctx, {
    projectId,
    jobId,
    view,
    timeoutMs,
    keepTyped: opts.conversation,
    ...(remember && { remember: 'started' as const }),
    startedHere: true,
    reconnectForMs,
  });
  const pending = pendingOf(r.state, projectId, jobId);
  const exitCode = exitCodeOf(r);
  const reattach = r.outcome === 'detached' || r.outcome === 'timeout' ? watchCommand(projectId, jobId) : undefined;
  view.end({ ...r, exitCode, pending, reattach });
  if (r.error) throw r.error;
  const result: TurnResult = { exitCode, jobId, detached: r.outcome === 'detached' };
  if (reattach) sayStopped(ctx, r, projectId, jobId);
  if (!pending) return { result };
  if (ctx.prompter.canPrompt()) {
    const next =
      pending.kind === 'question'
        ? await askQuestion(ctx, { question: pending.question, options: pending.options })
        : await askPlan(ctx);
    if (next) return { result, next, replyTo: { jobId, kind: pending.kind } };
    // Put off: the caller says how to answer later (a conversation, with its slash commands).
    return { result: { ...result, pending } };
  }
  await printPendingHint(ctx, pending);
  return { result };
}

/** After Esc or Decide later outside a conversation: the commands that answer later, once. */
export function printAnswerLater(ctx: Context, pending: Pending): void {
  if (ctx.io.json) return;
  ctx.io.errLine(`${pending.kind === 'plan' ? 'The plan waits' : 'The question waits'}; answer it later with one of:`);
  for (const line of answerLines(pending)) ctx.io.errLine(line);
}

async function printPendingHint(ctx: Context, pending: Pending): Promise<void> {
  if (ctx.io.json) return;
  ctx.io.errLine(
    pending.kind === 'question'
      ? `${pending.question === null ? agentAsks(null) : `The agent asks: ${await agentLine(ctx.io, pending.question)}`} Answer with one of:`
      : `${pending.plan === null ? `${PLAN_NOT_SHOWN} ` : ''}The plan waits for your word; answer with one of:`,
  );
  for (const line of answerLines(pending)) ctx.io.errLine(line);
}
