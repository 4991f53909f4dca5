// The exact commands printed for what comes next (answer a question, approve a plan,
// re-attach), and the `pending` part of the end of a run.
import { sanitizeInline } from '../../io/sanitize.js';
import { planOf, type RunState } from '../../render/reducer.js';
import type { Pending } from '../../render/run-view.js';

/** Quotes for a POSIX shell only when needed; ids come from the service, so they are sanitized first. */
export function shellQuote(raw: string): string {
  const s = sanitizeInline(raw);
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function chatCommand(projectId: string, ...rest: string[]): string {
  return ['sitebuilder chat', shellQuote(projectId), ...rest].join(' ');
}

/**
 * The question or the plan a run ended with, and the commands that answer it. Each names the run
 * with --job, so it answers this run or sends nothing (docs/real-service.md).
 */
export function pendingOf(state: RunState, projectId: string, jobId: string): Pending | undefined {
  if (state.state !== 'succeeded') return undefined;
  const job = ['--job', shellQuote(jobId)];
  if (state.question) {
    const answer = [chatCommand(projectId, '--answer', shellQuote('…'), ...job)];
    if (state.question.options.length) answer.unshift(chatCommand(projectId, '--choose', 'N', ...job));
    return { kind: 'question', question: state.question.question, options: state.question.options, answer };
  }
  if (state.planRequested) {
    return {
      kind: 'plan',
      plan: planOf(state),
      approve: chatCommand(projectId, '--approve', ...job),
      revise: chatCommand(projectId, '--revise', shellQuote('…'), ...job),
    };
  }
  return undefined;
}
