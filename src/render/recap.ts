// Attached to a run under way (`job watch`, a re-attach): what it did so far, said in a few lines
// before the run is followed (views.ts): a summary, the last lines of its text, its task list, and
// what waits or went wrong.
import { sanitizeInline } from '../io/sanitize.js';
import type { Todo } from '../service/events.js';
import type { RunState } from './reducer.js';
import type { TranscriptLine } from './transcript.js';

export interface Recap {
  summary: string;
  /** Whether text came before the last lines shown (an ellipsis says so). */
  more: boolean;
  lastText: TranscriptLine[];
  todos: Todo[];
  /** The question, the plan, errors and what could not be read. */
  tail: TranscriptLine[];
}

export const todosLine = (todos: Todo[]): TranscriptLine => ({ kind: 'todos', todos });

/** The recap of the lines kept while the run was read quietly. */
export function recapOf(kept: readonly TranscriptLine[], state: RunState, jobId: string): Recap {
  const texts = kept.filter((l) => l.kind === 'text' && l.text.trim() !== '');
  const files = state.files.length;
  const done = state.todos.filter((t) => t.status === 'done').length;
  const parts = [
    `${texts.length} line${texts.length === 1 ? '' : 's'} of text`,
    `${files} file change${files === 1 ? '' : 's'}`,
  ];
  if (state.todos.length) parts.push(`${done}/${state.todos.length} tasks done`);
  const lastText = texts.slice(-3);
  return {
    summary: `Attached to run ${jobId}, ${state.state}; so far: ${parts.join(', ')}.`,
    more: texts.length > lastText.length,
    lastText,
    todos: state.todos.map((t) => ({ ...t, title: sanitizeInline(t.title) })),
    tail: kept.filter((l) => l.kind === 'question' || l.kind === 'plan' || l.kind === 'error' || l.kind === 'unread'),
  };
}
