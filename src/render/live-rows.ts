// The rows of the pretty view's live block above the spinner (views.ts): the task list, updated
// in place as tasks change, then, in a conversation, the text typed meanwhile (typed-row.ts).
// The task list as it ended goes to the scrollback when the run stops.
import type { IO } from '../io/io.js';
import { style } from '../io/style.js';
import type { Todo } from '../service/events.js';
import { todoBlock } from './format.js';
import type { TranscriptLine } from './transcript.js';
import { typedRow } from './typed-row.js';

export type TodoLine = Extract<TranscriptLine, { kind: 'todos' | 'todo' }>;

export const isTodoLine = (l: TranscriptLine): l is TodoLine => l.kind === 'todos' || l.kind === 'todo';

export class LiveRows {
  private todos: Todo[] = [];
  /** Whether the task list as it is now is in the scrollback (or empty). */
  private printed = true;
  private typed = '';

  constructor(
    private readonly io: IO,
    private readonly draw: (rows: string[]) => void,
  ) {}

  /** A whole task list, or one task's new status. */
  todo(l: TodoLine): void {
    if (l.kind === 'todos') this.todos = l.todos;
    else {
      const at = this.todos.findIndex((t) => t.key === l.todo.key);
      this.todos = at >= 0 ? this.todos.with(at, l.todo) : [...this.todos, l.todo];
    }
    this.printed = this.todos.length === 0;
    this.redraw();
  }

  /** The text typed so far ('' for none). */
  typing(text: string): void {
    if (text === this.typed) return;
    this.typed = text;
    this.redraw();
  }

  /** The task list as it ended, once, for the scrollback; undefined when it is there already. */
  final(): TodoLine | undefined {
    if (this.printed) return undefined;
    this.printed = true;
    return { kind: 'todos', todos: this.todos };
  }

  private redraw(): void {
    const height = this.io.stderr.rows;
    const room = Math.max(3, Math.min(12, (typeof height === 'number' && height > 0 ? height : 24) - 6));
    const typed = typedRow(this.typed, this.io.columns - 1, style(this.io));
    this.draw([...todoBlock(this.todos, style(this.io), room), ...(typed ? [typed] : [])]);
  }
}
