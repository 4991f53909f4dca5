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
import { ApiError, EndOfInputError, EscapeError, ExitCode, InterruptedError } from '../../errors.js';
import { forgetTypeAhead, keepTypeAhead, peekTypeAhead, withKeysGuarded } from '../../io/keyguard.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { style } from '../../io/style.js';
import { agentText } from '../../render/agent-text.js';
import type { Pending } from '../../render/run-view.js';
import { askPlan, askQuestion, type NextMessage } from '../shared/conversation/answers.js';
import type { ReplyTo } from '../shared/conversation/reply-key.js';
import { followToEnd, runTurn, type TurnResult } from '../shared/conversation/turn.js';
import { waitingAtStart } from '../shared/conversation/waiting.js';
import { printQueue } from '../shared/queue.js';
import { waitingOn } from '../shared/run/next-steps.js';
import { confirmFirst, confirmOdd } from './confirm-send.js';
import { HELP, promptLabel, quoted, sayLeftWaiting, sayNotSent, sayWaiting } from './conversation-lines.js';
import { cancelSiteRun, resumeQueue } from './queue-commands.js';
import { oddLine, slashTypo } from './shell-like.js';

/** The slash commands, for "did you mean". */
const COMMANDS = ['/plan', '/queue', '/resume', '/cancel', '/reply', '/help', '/exit', '/quit'] as const;

/** What a message sent while `w` waits answers (its Idempotency-Key: shared/conversation/reply-key.ts). */
const replyOf = (w: Pending): ReplyTo => ({ jobId: w.jobId, kind: w.kind });

const ask = (ctx: Context, w: Pending): Promise<NextMessage | undefined> =>
  w.kind === 'question' ? askQuestion(ctx, { question: w.question, options: w.options }) : askPlan(ctx);

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
