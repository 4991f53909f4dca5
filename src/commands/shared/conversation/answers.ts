// Answering what a run ended with: the ask_user question (a select of its suggested answers
// plus "Other"), the plan (Approve and build / Revise / Decide later), and --choose N, which
// reads the question back from the latest run (waiting.ts).
import type { Context } from '../../../context.js';
import { InterruptedError, UsageError } from '../../../errors.js';
import { cutWidth, displayWidth } from '../../../io/width.js';
import { agentLine } from '../../../render/agent-text.js';
import type { Mode } from './send.js';
import { requireQuestion } from './reply-target.js';
import { choices } from './what-waits.js';

/** What a build message says to approve a plan (the service: "to approve, send a build message"). */
export const APPROVE_TEXT = 'Approve the plan and build it.';

/** A question as asked: its words (null when they could not be read) and its suggested answers. */
export interface AskedQuestion {
  question: string | null;
  options: string[];
}

export interface NextMessage {
  prompt: string;
  mode: Mode;
}

const OTHER = Symbol('other');

/** Ctrl-C or Esc in a prompt leaves the question waiting (undefined). */
async function orLater<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof InterruptedError) return undefined;
    throw err;
  }
}

export async function askQuestion(ctx: Context, q: AskedQuestion): Promise<NextMessage | undefined> {
  // The labels are printed, so they are sanitized and fit one line each; the answer sent is the
  // option as the service gave it.
  const room = Math.max(10, ctx.io.columns - 4);
  const choices = [
    ...(await Promise.all(q.options.map((o) => agentLine(ctx.io, o)))).map((label, i) => ({
      label: cutWidth(label, room),
      value: q.options[i] as string | typeof OTHER,
    })),
    { label: 'Other (type an answer)', value: OTHER as string | typeof OTHER },
  ];
  // A question wider than the terminal is said above the list, wrapped at word boundaries: the
  // list's own title line would be folded mid-word while it waits.
  if (q.question === null)
    ctx.io.errLine(
      'The agent asks a question whose words the service sent in a form sitebuilder cannot read; --json shows it.',
    );
  let title = (q.question !== null && (await agentLine(ctx.io, q.question))) || 'The agent asks a question';
  if (displayWidth(title) + 4 > ctx.io.columns) {
    ctx.io.errLine(`The agent asks: ${title}`);
    title = 'Your answer';
  }
  const picked = await orLater(ctx.prompter.select(title, choices));
  if (picked === undefined) return undefined;
  if (picked !== OTHER) return { prompt: picked, mode: 'build' };
  const text = await orLater(
    ctx.prompter.input('Your answer', {
      validate: (v) => (v.trim() ? true : 'Type an answer, or press Esc to answer later.'),
    }),
  );
  return text?.trim() ? { prompt: text.trim(), mode: 'build' } : undefined;
}

export async function askPlan(ctx: Context): Promise<NextMessage | undefined> {
  const picked = await orLater(
    ctx.prompter.select('Build this plan?', [
      { label: 'Approve and build', value: 'approve' },
      { label: 'Revise it: say what to change', value: 'revise' },
      { label: 'Decide later', value: 'later' },
    ]),
  );
  if (picked === 'approve') return { prompt: APPROVE_TEXT, mode: 'build' };
  if (picked !== 'revise') return undefined;
  const text = await orLater(
    ctx.prompter.input('What should change in the plan?', {
      validate: (v) => (v.trim() ? true : 'Say what should change, or press Esc to decide later.'),
    }),
  );
  return text?.trim() ? { prompt: text.trim(), mode: 'plan' } : undefined;
}

/** --choose N: the Nth suggested answer of the question that waits on the latest run (--job names it), and that run. */
export async function chosenAnswer(
  ctx: Context,
  projectId: string,
  n: number,
  jobId?: string,
): Promise<{ prompt: string; jobId: string }> {
  const { question: q, jobId: asked } = await requireQuestion(ctx, projectId, '--choose', jobId);
  if (q.options.length === 0)
    throw new UsageError('This question has no suggested answers; answer with --answer TEXT. Nothing was sent.');
  if (n > q.options.length)
    throw new UsageError(
      `--choose takes 1 to ${q.options.length} for this question; nothing was sent. Pick one with ${choices(projectId, asked, q.options).join(', ')}.`,
    );
  return { prompt: q.options[n - 1], jobId: asked };
}
