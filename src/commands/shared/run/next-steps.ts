// The exact commands printed for what comes next (answer a question, approve a plan,
// re-attach), and the `pending` part of the end of a run. Each is whole: pasted, it does what it
// says (`--choose 2` picks the second suggested answer), or it holds a placeholder (`--answer
// '…'`) that the CLI refuses with exit 2 before anything is sent (core/placeholders.ts).
import { type Flag, flag, sb, shellQuote } from '../../../io/shell.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import type { Question } from '../../../service/events.js';
import { isUnread, type Read } from '../../../service/read.js';
import { planOf, type RunState } from '../../../render/reducer.js';
import type { Pending } from '../../../render/run-view.js';

export { shellQuote };

/** "The agent asks: …", or that it asks a question whose words could not be read. */
export function agentAsks(question: string | null): string {
  return question === null
    ? 'The agent asks a question whose words sitebuilder cannot read (--json shows them).'
    : `The agent asks: ${sanitizeInline(question)}`;
}

/** Said before the commands that approve a plan whose text could not be shown. */
export const PLAN_NOT_SHOWN = 'The plan’s text could not be read here; --json shows it. Read it before you approve it.';

export function chatCommand(projectId: string, ...rest: Array<string | Flag>): string {
  return sb('chat', projectId, ...rest);
}

/**
 * The question or the plan a run ended with, and the commands that answer it. Each names the run
 * with --job, so it answers this run or sends nothing (docs/real-service.md).
 */
export function pendingOf(state: RunState, projectId: string, jobId: string): Pending | undefined {
  if (state.state !== 'succeeded') return undefined;
  if (state.question) return waitingOn(projectId, jobId, { question: state.question });
  if (state.planRequested) return waitingOn(projectId, jobId, { plan: planOf(state) });
  return undefined;
}

/**
 * The question (or else the plan) that waits on run `jobId`, with the commands that answer it:
 * one `--choose N` per suggested answer, in their order, then `--answer '…'` (to fill in).
 */
export function waitingOn(
  projectId: string,
  jobId: string,
  what: { question?: Question; plan?: Read<string> },
): Pending {
  const job = flag('--job', jobId);
  if (what.question) {
    const answer = [
      ...what.question.options.map((_, i) => chatCommand(projectId, flag('--choose', String(i + 1)), job)),
      chatCommand(projectId, flag('--answer', '…'), job),
    ];
    const q = what.question.question;
    return { kind: 'question', jobId, question: isUnread(q) ? null : q, options: what.question.options, answer };
  }
  return {
    kind: 'plan',
    jobId,
    plan: what.plan === undefined || isUnread(what.plan) ? null : what.plan,
    approve: chatCommand(projectId, flag('--approve'), job),
    revise: chatCommand(projectId, flag('--revise', '…'), job),
  };
}

/**
 * The ways to answer what waits, as lines to print under a lead sentence: each suggested answer
 * with the command that picks it below it, then the command to fill in with one's own words.
 */
export function answerLines(p: Pending): string[] {
  if (p.kind === 'plan')
    return [
      '  Approve it and build it:',
      `    ${p.approve}`,
      '  Or say what should change (your words in place of …):',
      `    ${p.revise}`,
    ];
  const lines = p.options.flatMap((o, i) => [`  ${i + 1}. ${sanitizeInline(o)}`, `    ${p.answer[i]}`]);
  const own = p.answer.at(-1) ?? '';
  return [
    ...lines,
    p.options.length ? '  Or in your own words (in place of …):' : '  In your words (in place of …):',
    `    ${own}`,
  ];
}
