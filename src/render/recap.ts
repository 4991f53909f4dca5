// Attached to a run under way (`job watch`, a re-attach): what it did so far, said in a few lines
// before the run is followed (views.ts): a summary, the last lines of its text, its task list, and
// what waits or went wrong.
import { sanitizeInline } from '../io/sanitize.js';
import { Splitter } from './markdown/split.js';
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
  const lastText = lastLines(kept, LAST_LINES);
  const shown = lastText.filter((l) => l.kind === 'text' && l.text.trim() !== '').length;
  return {
    summary: `Attached to run ${jobId}, ${state.state}; so far: ${parts.join(', ')}.`,
    more: texts.length > shown,
    lastText,
    todos: state.todos.map((t) => ({ ...t, title: sanitizeInline(t.title) })),
    tail: kept.filter((l) => l.kind === 'question' || l.kind === 'plan' || l.kind === 'error' || l.kind === 'unread'),
  };
}

/** How many lines of text the recap shows at least (more where a block starts before them). */
const LAST_LINES = 3;
/** A block starting this many lines before them at most is shown whole; past it, from the next block. */
const MAX_BACK = 12;

/**
 * The last `n` non-blank lines of the agent's text, cut where a Markdown block starts (split.ts):
 * the text is rendered as Markdown, and a cut inside a fenced code block would leave the prose
 * after it read as code. Texts are those the view renders as one: consecutive text lines (any
 * other line ends one). The cut goes back to the block that holds the first of those lines, or,
 * when that block starts far back (a long code block), forward to the next block; inside one
 * block that never ends, back to its start. Blank lines between are kept (they end paragraphs).
 */
export function lastLines(kept: readonly TranscriptLine[], n: number): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  /** Where a block starts, as indices in `lines`. */
  const cuts: number[] = [];
  let splitter: Splitter | undefined;
  for (const l of kept) {
    if (l.kind !== 'text') {
      splitter = undefined;
      continue;
    }
    if (!splitter) {
      splitter = new Splitter();
      splitter.cutBefore(l.text);
      cuts.push(lines.length);
    } else if (splitter.cutBefore(l.text)) cuts.push(lines.length);
    lines.push(l);
  }
  let want = lines.length;
  for (let seen = 0; want > 0 && seen < n; ) if (lines[--want]?.kind === 'text' && blank(lines[want]) === false) seen++;
  const back = cuts.filter((c) => c <= want).at(-1) ?? 0;
  const ahead = cuts.find((c) => c > want && c < lines.length);
  const start = want - back > MAX_BACK && ahead !== undefined ? ahead : back;
  const shown = lines.slice(start);
  while (shown.length && blank(shown[0] as TranscriptLine)) shown.shift();
  while (shown.length && blank(shown.at(-1) as TranscriptLine)) shown.pop();
  return shown;
}

const blank = (l: TranscriptLine): boolean => l.kind === 'text' && l.text.trim() === '';
