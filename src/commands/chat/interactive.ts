// `sitebuilder chat <site>` in a terminal: a prompt loop. Each message starts (or queues) a run
// that is rendered live; questions and plans are answered with a select. An empty line or
// /exit leaves; /plan toggles plan mode; /cancel stops the site's run; /queue shows the queue.
// Ctrl-C during a run cancels it; a second Ctrl-C detaches and leaves with 130. A question or
// plan left waiting by an earlier run is asked first; when the latest run cannot be told, the
// first message is confirmed (waiting.ts).
import type { Context } from '../../context.js';
import { ApiError, ExitCode, InterruptedError } from '../../errors.js';
import { sanitize, sanitizeInline } from '../../io/sanitize.js';
import { style } from '../../io/style.js';
import { printQueue } from '../queue/list.js';
import { askPlan, askQuestion, type NextMessage } from './answers.js';
import { runTurn } from './turn.js';
import { waitingAtStart } from './waiting.js';

const HELP =
  'Type a message for the agent. /plan toggles plan mode · /queue shows the queue · /cancel stops the run · /exit or an empty line leaves.';

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

/**
 * What an earlier run left waiting is shown first: the next message would answer it. When that
 * cannot be told, the first message is confirmed (--yes: sent as typed).
 */
async function replyToWaiting(ctx: Context, projectId: string): Promise<NextMessage | 'unknown' | undefined> {
  const run = await waitingAtStart(ctx, projectId);
  if (run === 'unknown' || !run) return run;
  const what = run.question ? 'question' : 'plan';
  ctx.io.errLine(`The agent's ${what} from run ${sanitizeInline(run.jobId)} still waits:`);
  if (run.plan) ctx.io.outLine(sanitize(run.plan));
  const next = run.question ? await askQuestion(ctx, run.question) : await askPlan(ctx);
  if (!next)
    ctx.io.errLine(
      `The ${what} still waits: your next message is taken as ${run.question ? 'its answer' : 'the reply to it'}.`,
    );
  return next;
}

/** The first message, when what waits cannot be told; Esc declines. */
async function confirmFirst(ctx: Context): Promise<boolean> {
  try {
    return await ctx.prompter.confirm('Send it? (it may answer a question or plan left waiting)', true);
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
  ctx.io.errLine(`${c.bold(`Chatting with the agent of ${sanitizeInline(projectId)}.`)} ${c.dim(HELP)}`);
  /**
   * One turn; the exit code when its run was detached from (Ctrl-C: 130; no connection: 8). A
   * refusal (queue full, no credits…) ends the turn, not the conversation.
   */
  const turn = async (next: NextMessage): Promise<number | undefined> => {
    try {
      const r = await runTurn(ctx, {
        projectId,
        ...next,
        follow: true,
        timeoutMs: opts.timeoutMs,
        reconnectForMs: opts.reconnectForMs,
      });
      return r.detached ? r.exitCode : undefined;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.io.errLine(`error: ${err.message}`);
      return undefined;
    }
  };
  const waiting = await replyToWaiting(ctx, projectId);
  let unconfirmed = waiting === 'unknown' && !ctx.globals.yes;
  const detached = waiting && waiting !== 'unknown' ? await turn(waiting) : undefined;
  if (detached !== undefined) return detached;
  for (;;) {
    let line: string;
    try {
      line = (await ctx.prompter.input(plan ? 'You (plan mode)' : 'You')).trim();
    } catch (err) {
      if (err instanceof InterruptedError) return ExitCode.interrupted;
      throw err;
    }
    if (line === '' || line === '/exit' || line === '/quit') return ExitCode.ok;
    if (line === '/plan') {
      plan = !plan;
      ctx.io.errLine(
        plan
          ? 'Plan mode: the agent writes a plan and changes nothing until you approve it.'
          : 'Build mode: the agent changes the site.',
      );
      continue;
    }
    if (line === '/queue') {
      await printQueue(ctx, projectId);
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
      ctx.io.errLine(`Unknown command ${line}. ${HELP}`);
      continue;
    }
    if (unconfirmed) {
      if (!(await confirmFirst(ctx))) {
        ctx.io.errLine('Not sent.');
        continue;
      }
      unconfirmed = false;
    }
    const code = await turn({ prompt: line, mode: plan ? 'plan' : 'build' });
    if (code !== undefined) return code;
  }
}
