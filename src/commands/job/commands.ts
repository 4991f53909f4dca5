// The exact commands printed for what comes next (answer a question, approve a plan,
// re-attach), and the `pending` part of the end of a run.
import { shellQuote } from '../../io/shell.js';
import type { Question } from '../../render/events.js';
import { planOf, type RunState } from '../../render/reducer.js';
import type { Pending } from '../../render/run-view.js';

export { shellQuote };

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
export function waitingOn(projectId: string, jobId: string, what: { question?: Question; plan?: string }): Pending {
  const job = ['--job', shellQuote(jobId)];
  if (what.question) {
    const answer = [chatCommand(projectId, '--answer', shellQuote('…'), ...job)];
    if (what.question.options.length) answer.unshift(chatCommand(projectId, '--choose', 'N', ...job));
    return { kind: 'question', question: what.question.question, options: what.question.options, answer };
  }
  return {
    kind: 'plan',
    plan: what.plan ?? '',
    approve: chatCommand(projectId, '--approve', ...job),
    revise: chatCommand(projectId, '--revise', shellQuote('…'), ...job),
  };
}
