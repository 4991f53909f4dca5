// From events to transcript lines, one event at a time, so the same events in any chunking give
// the same lines. Agent text is printed by completed lines (a partial line is flushed when
// something else is printed, or at the end), never redrawn. After a reset the service replays
// the run: lines already printed are not printed twice; from the first difference on, the new
// lines print after a note.
import { stringifyJson } from '../io/json-deep.js';
import { sanitize, sanitizeInline } from '../io/sanitize.js';
import {
  type FileOp,
  type JobEvent,
  readErrorMessage,
  readFileEvent,
  readQuestion,
  readTextEvent,
  readTodosEvent,
  readToolCall,
  readToolResult,
  summarize,
  type Todo,
  type TodoStatus,
} from '../service/events.js';
import { describeUnread, isUnread, type Unread } from '../service/read.js';

/** A question as printed: its words, or null when they could not be read. */
export interface ShownQuestion {
  question: string | null;
  options: string[];
}

export type TranscriptLine =
  | { kind: 'text'; text: string }
  | { kind: 'todos'; todos: Todo[] }
  | { kind: 'todo'; todo: Todo }
  | { kind: 'file'; op: FileOp; path: string }
  | { kind: 'step'; name: string; summary: string }
  | { kind: 'result'; summary: string; failed: boolean }
  | { kind: 'question'; question: ShownQuestion }
  | { kind: 'plan'; textShown: boolean }
  | { kind: 'error'; message: string }
  | { kind: 'event'; event: string; summary: string }
  | { kind: 'note'; text: string }
  /** What the service sent that could not be read: said once a kind; `detail` names the paths (--debug). */
  | { kind: 'unread'; what: string; detail: string };

const clean = (s: string) => sanitizeInline(s).replace(/\s+$/, '');
/** A line of the agent's text: its tabs kept (code and nested lists indent with them). */
const cleanText = (s: string) => sanitize(s).replace(/\n/g, ' ').replace(/\s+$/, '');

/** What a line is, to compare a replay with: the agent's text as itself (most lines, and cheap), the rest as JSON. */
function lineKey(line: TranscriptLine): string {
  return line.kind === 'text' ? `text:${line.text}` : (stringifyJson(line) ?? 'null');
}

export class Transcriber {
  private partial = '';
  private printedTodos = new Map<string, TodoStatus>();
  private blockPrinted = false;
  /** Keys of the lines printed since the last reset, in order. */
  private emitted: string[] = [];
  private replay: string[] | undefined;
  private replayPos = 0;
  /** Kinds of unread data already said, and whether any text was shown or went unread (for the plan line). */
  private saidUnread = new Set<string>();
  private textShown = false;
  private textUnread = false;

  /** The service replays the run from its start: compare what comes against what was printed. */
  reset(): void {
    this.replay = this.emitted;
    this.replayPos = 0;
    this.emitted = [];
    this.partial = '';
    // The replayed todos events rebuild the same block and changes, which the replay absorbs.
    this.printedTodos.clear();
    this.blockPrinted = false;
    this.saidUnread.clear();
    this.textShown = false;
    this.textUnread = false;
  }

  /** Says once a kind that the service sent something that could not be read. */
  private sayUnread(out: TranscriptLine[], u: Unread): void {
    if (this.saidUnread.has(u.what)) return;
    this.saidUnread.add(u.what);
    this.flush(out);
    this.push(out, { kind: 'unread', what: u.what, detail: describeUnread(u, 'data.') });
  }

  event(ev: JobEvent): TranscriptLine[] {
    const out: TranscriptLine[] = [];
    const data = ev.data;
    switch (ev.event) {
      case 'text': {
        const piece = readTextEvent(data);
        if (isUnread(piece)) {
          this.textUnread = true;
          this.sayUnread(out, piece);
          return out;
        }
        if (!piece) break;
        if (piece.trim()) this.textShown = true;
        this.partial += piece;
        // A long line coming in many pieces is not split again for every piece.
        if (!piece.includes('\n')) return out;
        const parts = this.partial.split('\n');
        this.partial = parts.pop() ?? '';
        for (const p of parts) this.push(out, { kind: 'text', text: cleanText(p) });
        return out;
      }
      case 'todos': {
        const todos = readTodosEvent(data);
        if (isUnread(todos)) {
          this.sayUnread(out, todos);
          return out;
        }
        if (todos.length === 0) break;
        this.flush(out);
        if (!this.blockPrinted) {
          this.blockPrinted = true;
          for (const t of todos) this.printedTodos.set(t.key, t.status);
          this.push(out, { kind: 'todos', todos: todos.map((t) => ({ ...t, title: clean(t.title) })) });
          return out;
        }
        for (const t of todos) {
          if (this.printedTodos.get(t.key) === t.status) continue;
          this.printedTodos.set(t.key, t.status);
          this.push(out, { kind: 'todo', todo: { ...t, title: clean(t.title) } });
        }
        return out;
      }
      case 'file_changed':
      case 'file_deleted': {
        const f = readFileEvent(data, ev.event);
        this.flush(out);
        if (!isUnread(f)) this.push(out, { kind: 'file', op: f.op, path: clean(f.path) });
        else {
          this.sayUnread(out, f);
          this.push(out, { kind: 'event', event: ev.event, summary: clean(summarize(data)) });
        }
        return out;
      }
      case 'tool_call': {
        this.flush(out);
        const q = readQuestion(data);
        if (q) {
          if (isUnread(q.question)) this.sayUnread(out, q.question);
          this.push(out, {
            kind: 'question',
            question: { question: isUnread(q.question) ? null : clean(q.question), options: q.options.map(clean) },
          });
          return out;
        }
        const call = readToolCall(data);
        this.push(out, {
          kind: 'step',
          name: clean(call.name),
          summary: clean(summarize(call.target ?? (Object.keys(call.input).length ? call.input : ''), 80)),
        });
        return out;
      }
      case 'tool_result': {
        this.flush(out);
        const r = readToolResult(data);
        this.push(out, { kind: 'result', failed: r.failed, summary: clean(summarize(r.summary ?? data, 80)) });
        return out;
      }
      case 'plan_approval_requested':
        this.flush(out);
        this.push(out, { kind: 'plan', textShown: this.textShown && !this.textUnread });
        return out;
      case 'credits_used':
        // Shown once, at the end of the run, with the total.
        return out;
      case 'error': {
        this.flush(out);
        const m = readErrorMessage(data);
        this.push(out, {
          kind: 'error',
          message: clean(isUnread(m) ? summarize(data) : m) || 'The run reported an error.',
        });
        return out;
      }
      default:
        this.flush(out);
        this.push(out, { kind: 'event', event: clean(ev.event), summary: clean(summarize(data)) });
        return out;
    }
    return out;
  }

  /** At the end of the run: the last partial line of text. */
  finish(): TranscriptLine[] {
    const out: TranscriptLine[] = [];
    this.flush(out);
    return out;
  }

  /** The line of text still coming (cleaned), shown as it is so far where rows can be redrawn. */
  partialLine(): string {
    return cleanText(this.partial);
  }

  private flush(out: TranscriptLine[]): void {
    if (this.partial === '') return;
    const text = cleanText(this.partial);
    this.partial = '';
    if (text) this.push(out, { kind: 'text', text });
  }

  private push(out: TranscriptLine[], line: TranscriptLine): void {
    const key = lineKey(line);
    if (this.replay) {
      if (this.replayPos < this.replay.length && this.replay[this.replayPos] === key) {
        this.replayPos++;
        this.emitted.push(key);
        return;
      }
      const diverged = this.replayPos < this.replay.length;
      this.replay = undefined;
      if (diverged) out.push({ kind: 'note', text: 'The agent replaced its earlier output; what follows is new.' });
    }
    this.emitted.push(key);
    out.push(line);
  }
}
