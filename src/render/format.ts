// How transcript lines look. pretty (TTY): glyphs and colour. plain (piped): no ANSI byte, no
// `\r`, and a stable first field a script can grep, tab-separated like the other piped output:
//   text  todo  file  step  result  question  option  plan  error  event  note  state  end
import type { ChalkInstance } from 'chalk';
import type { Todo, TodoStatus } from '../service/events.js';
import type { TranscriptLine } from './transcript.js';

export type ViewMode = 'pretty' | 'plain';

const GLYPH: Record<TodoStatus, string> = { pending: '○', in_progress: '▸', done: '✓', cancelled: '–' };
const FILE_MARK = { added: '+', changed: '~', deleted: '-' } as const;

function prettyTodo(t: Todo, c: ChalkInstance): string {
  const g = GLYPH[t.status];
  if (t.status === 'done') return `  ${c.green(g)} ${c.dim(t.title)}`;
  if (t.status === 'in_progress') return `  ${c.cyan(g)} ${t.title}`;
  return `  ${c.dim(g)} ${t.title}`;
}

/**
 * The task list of the live block: a header with the count done, then the tasks, at most `room`
 * rows in all. A longer list shows the tasks from just before the first one not done, and a last
 * row counts the ones left out.
 */
export function todoBlock(todos: Todo[], c: ChalkInstance, room: number): string[] {
  if (todos.length === 0) return [];
  const isDone = (t: Todo) => t.status === 'done' || t.status === 'cancelled';
  const done = todos.filter((t) => t.status === 'done').length;
  const header = `${c.bold('Tasks')} ${c.dim(`${done}/${todos.length}`)}`;
  const fits = Math.max(2, room - 1);
  if (todos.length <= fits) return [header, ...todos.map((t) => prettyTodo(t, c))];
  const shown = fits - 1;
  const open = todos.findIndex((t) => !isDone(t));
  const from = Math.max(0, Math.min((open < 0 ? todos.length : open) - 1, todos.length - shown));
  const hidden = [...todos.slice(0, from), ...todos.slice(from + shown)];
  const hiddenDone = hidden.filter(isDone).length;
  const left = [hiddenDone && `${hiddenDone} done`, hidden.length - hiddenDone && `${hidden.length - hiddenDone} more`];
  return [
    header,
    ...todos.slice(from, from + shown).map((t) => prettyTodo(t, c)),
    c.dim(`  … ${left.filter(Boolean).join(', ')}`),
  ];
}

/** The one sentence for what the service sent that could not be read (docs/real-service.md "Unread is said"). */
export const unreadSentence = (what: string): string =>
  `the service sent ${what} sitebuilder cannot read; --json shows it`;

/** The line that closes a plan run: "the plan above" only where its text was shown. */
export const planLine = (textShown: boolean): string =>
  textShown
    ? 'The plan above waits for your approval.'
    : 'A plan waits for your approval; its text could not be shown here (--json shows it).';

export function formatPretty(line: TranscriptLine, c: ChalkInstance): string[] {
  switch (line.kind) {
    case 'text':
      return [line.text];
    case 'todos':
      return [c.bold('Tasks'), ...line.todos.map((t) => prettyTodo(t, c))];
    case 'todo':
      return [prettyTodo(line.todo, c)];
    case 'file': {
      const mark = FILE_MARK[line.op];
      const paint = line.op === 'added' ? c.green : line.op === 'deleted' ? c.red : c.yellow;
      return [`${paint(mark)} ${line.path}`];
    }
    case 'step':
      return [c.dim(`› ${line.name}${line.summary ? ` ${line.summary}` : ''}`)];
    case 'result':
      return line.failed ? [c.red(`  ✗ ${line.summary}`)] : [];
    case 'question':
      // Not here: the run ends right after it, and the question is then asked as a select or
      // printed with its options and the answer commands; shown here too, it read twice.
      return [];
    case 'plan':
      return [c.cyan(planLine(line.textShown))];
    case 'error':
      return [c.red(`✗ ${line.message}`)];
    case 'event':
      return [c.dim(`· ${line.event}${line.summary ? `: ${line.summary}` : ''}`)];
    case 'note':
      return [c.dim(`(${line.text})`)];
    case 'unread':
      return [c.yellow(`(${unreadSentence(line.what)})`)];
  }
}

const tabless = (s: string) => s.replace(/\t/g, ' ');

export function formatPlain(line: TranscriptLine): string[] {
  switch (line.kind) {
    case 'text':
      return [`text\t${tabless(line.text)}`];
    case 'todos':
      return line.todos.map((t) => `todo\t${t.status}\t${tabless(t.title)}`);
    case 'todo':
      return [`todo\t${line.todo.status}\t${tabless(line.todo.title)}`];
    case 'file':
      return [`file\t${FILE_MARK[line.op]}\t${tabless(line.path)}`];
    case 'step':
      return [`step\t${tabless(line.name)}\t${tabless(line.summary)}`];
    case 'result':
      return [`result\t${line.failed ? 'failed' : 'ok'}\t${tabless(line.summary)}`];
    case 'question':
      return [
        `question\t${tabless(line.question.question ?? '')}`,
        ...line.question.options.map((o, i) => `option\t${i + 1}\t${tabless(o)}`),
      ];
    case 'plan':
      return [line.textShown ? 'plan\twaiting for approval' : 'plan\twaiting for approval\ttext not shown'];
    case 'error':
      return [`error\t${tabless(line.message)}`];
    case 'event':
      return [`event\t${tabless(line.event)}\t${tabless(line.summary)}`];
    case 'note':
      return [`note\t${tabless(line.text)}`];
    case 'unread':
      return [`note\t${unreadSentence(line.what)}`];
  }
}
