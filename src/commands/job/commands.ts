// The exact commands printed for what comes next (answer a question, approve a plan,
// re-attach), and the `pending` part of the end of a run.
import { sanitizeInline } from '../../io/sanitize.js';
import { shellQuote } from '../../io/shell.js';
import type { Question } from '../../service/events.js';
import { isUnread, type Read } from '../../service/read.js';
import { planOf, type RunState } from '../../render/reducer.js';
import type { Pending } from '../../render/run-view.js';

export { shellQuote };

/** "The agent asks: …", or that it asks a question whose words could not be read. */
export function agentAsks(question: string | null): string {
  return question === null
    ? 'The agent asks a question whose words sitebuilder cannot read (--json shows them).'
    : `The agent asks: ${sanitizeInline(question)}`;
}

/** Said before the commands that approve a plan whose text could not be shown. */
export const PLAN_NOT_SHOWN = 'The plan’s text could not be read here; --json shows it. Read it before you approve it.';

export function chatCommand(projectId: string, ...rest: string[]): string {
  return ['sitebuilder chat', shellQuote(projectId), ...rest].join(' ');
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

/** The question (or else the plan) that waits on run `jobId`, with the commands that answer it. */
export function waitingOn(
  projectId: string,
  jobId: string,
  what: { question?: Question; plan?: Read<string> },
): Pending {
  const job = ['--job', shellQuote(jobId)];
  if (what.question) {
    const answer = [chatCommand(projectId, '--answer', shellQuote('…'), ...job)];
    if (what.question.options.length) answer.unshift(chatCommand(projectId, '--choose', 'N', ...job));
    const q = what.question.question;
    return { kind: 'question', jobId, question: isUnread(q) ? null : q, options: what.question.options, answer };
  }
  return {
    kind: 'plan',
    jobId,
    plan: what.plan === undefined || isUnread(what.plan) ? null : what.plan,
    approve: chatCommand(projectId, '--approve', ...job),
    revise: chatCommand(projectId, '--revise', shellQuote('…'), ...job),
  };
}
