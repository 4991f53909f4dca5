// The three views of a followed run. pretty (TTY) and plain (piped) print transcript lines on
// stdout, with a spinner on stderr in pretty mode; json prints NDJSON: the events unchanged, a
// few lines of our own marked by `type`, and exactly one `{"type":"end",…}` line at the end.
// pretty plays each answer's lines back over the wait until the next poll (playback.ts); plain
// and json print them at once. Where the terminal redraws, pretty keeps the scrollback
// append-only (text, steps, file changes) and holds one live block at the bottom of stderr: the
// task list, updated in place, and in a conversation the text typed meanwhile (live-rows.ts),
// above the spinner with the elapsed time and the credits; the task list as it ended goes to the
// scrollback when the run stops. Elsewhere (TERM=dumb, under
// 20 columns, no cursor movement) the task list and each change of it are printed as lines.
import type { Clock } from '../clock.js';
import type { IO } from '../io/io.js';
import { startSpinner, type Spinner } from '../io/spinner.js';
import { style } from '../io/style.js';
import { formatPlain, formatPretty, type ViewMode } from './format.js';
import { creditsOfRun, type AppliedAnswer, type RunState } from './reducer.js';
import { Transcriber, type TranscriptLine } from './transcript.js';
import { JsonRunView } from './json-view.js';
import { Playback, wrapRows } from './playback.js';
import type { CancelNotice, RunEnd, RunView } from './run-view.js';
import { append } from './append.js';
import { AgentFeed, canRewrite } from './agent-feed.js';
import { creditsText, endLine, plainEndLine, stateLabel } from './end-line.js';
import { recapOf, todosLine } from './recap.js';
import { FailureRepeats } from './repeats.js';
import { isTodoLine, LiveRows } from './live-rows.js';

/** The transcript's lines that are sentences, wrapped to the terminal in the pretty view. */
const WRAPPED: ReadonlySet<TranscriptLine['kind']> = new Set(['note', 'error', 'result', 'unread']);

export function chooseViewMode(io: IO): ViewMode | 'json' {
  return io.json ? 'json' : io.stdoutIsTTY ? 'pretty' : 'plain';
}

export interface RunViewOptions {
  /** Whether the terminal can move the cursor (not TERM=dumb): rows are then played word by word. */
  redraw?: boolean;
  /** --debug: where the model looked for what it could not read (ctx.debug). */
  debug?: (line: string) => void;
}

export function createRunView(io: IO, clock: Clock, mode = chooseViewMode(io), opts: RunViewOptions = {}): RunView {
  return mode === 'json' ? new JsonRunView(io) : new TextRunView(io, clock, mode, opts);
}

/** Below this width, rows are not redrawn: lines are played whole. */
const MIN_REDRAW_COLUMNS = 20;

export class TextRunView implements RunView {
  private readonly t = new Transcriber();
  private spinner?: Spinner;
  private kept: TranscriptLine[] = [];
  private lastState = 'unknown';
  private jobId = '';
  private header?: string;
  /** pretty: a failed step, held until we know the run's error does not repeat it. */
  private readonly repeats = new FailureRepeats();
  private printedErrors = new Set<string>();
  /** pretty: the lines of the last answer, played back over the wait. */
  private readonly playback?: Playback;
  private readonly redraw: boolean;
  /** pretty, where the live block is drawn: the task list shown in it, and whether it went to the scrollback. */
  private live = false;
  private readonly liveRows: LiveRows;
  private readonly debug?: (line: string) => void;
  /** pretty: the agent's text, rendered as Markdown where it is on. */
  private readonly feed = new AgentFeed();

  constructor(
    private readonly io: IO,
    private readonly clock: Clock,
    private readonly mode: ViewMode,
    opts: RunViewOptions = {},
  ) {
    // Rows are redrawn where the IO can redraw (IO.canRedraw: stderr a terminal too, no pipe).
    const redraw = (opts.redraw ?? true) && io.cursorMoves && io.canRedraw && io.columns >= MIN_REDRAW_COLUMNS;
    this.redraw = redraw;
    this.liveRows = new LiveRows(io, (rows) => this.spinner?.above(rows));
    this.debug = opts.debug;
    if (mode === 'pretty') {
      this.playback = new Playback(
        clock,
        {
          write: (text) => this.write(text),
          rewrite: (rows, text) => this.write(text, rows),
          canRewrite: (rows, writes) => io.writes === writes && canRewrite(io, rows),
          writes: () => io.writes,
          columns: () => io.columns,
        },
        redraw,
      );
    }
  }

  async begin(projectId: string, jobId: string): Promise<void> {
    this.jobId = jobId;
    // Printed with the first answer: a run that cannot be read leaves stdout empty.
    if (this.mode === 'plain') this.header = `job\t${projectId}\t${jobId}`;
    else {
      await this.feed.load(this.io);
      this.spinner = await startSpinner(this.io, this.clock, stateLabel('running'), { redraw: this.redraw });
      this.live = this.spinner.live;
    }
  }

  private printHeader(): void {
    if (this.header) this.io.outLine(this.header);
    this.header = undefined;
  }

  answer(applied: AppliedAnswer, _raw: unknown[], opts: { quiet?: boolean } = {}): void {
    // Never slower than the service: what the last answer brought is all shown before this one.
    this.playback?.flush();
    this.printHeader();
    if (applied.reset) this.t.reset();
    const lines: TranscriptLine[] = [];
    for (const ev of applied.events) append(lines, this.t.event(ev));
    if (opts.quiet) append(this.kept, lines);
    else if (this.playback) this.enqueue(this.repeats.without(lines));
    else this.print(lines);
    this.spinner?.suffix(creditsText(creditsOfRun(applied.state)));
    const state = applied.state.state;
    if (state !== this.lastState) {
      const first = this.lastState === 'unknown';
      this.lastState = state;
      if (this.mode === 'plain' && !first && !opts.quiet && (state === 'stalled' || state === 'running'))
        this.io.outLine(`state\t${state}`);
      this.spinner?.update(stateLabel(state));
    }
  }

  recap(state: RunState): void {
    const r = recapOf(this.kept, state, this.jobId);
    this.kept = [];
    // Live, the task list goes to the block (and to the scrollback when the run stops).
    if (this.live && r.todos.length) this.liveRows.todo({ kind: 'todos', todos: r.todos });
    const rest: TranscriptLine[] = [
      ...r.lastText,
      ...(r.todos.length && !this.live ? [todosLine(r.todos)] : []),
      ...r.tail,
    ];
    if (this.mode === 'plain') {
      this.io.outLine(`note\t${r.summary}`);
      this.print(rest);
      return;
    }
    this.print([{ kind: 'note', text: r.summary }]);
    if (r.more) this.print([{ kind: 'note', text: '…' }]);
    this.print(rest);
  }

  async play(until: number, signal?: AbortSignal): Promise<void> {
    // A long text is laid out as it plays (markdown/stream.ts): its first rows show at once.
    this.feed.forgetLaidOut(this.io.columns - 1);
    await this.playback?.play(until, signal);
    if (signal?.aborted) this.feed.interrupted = true;
  }

  /** The run ended: its text is rendered, yielding as it goes, before the end is printed. */
  async settle(signal?: AbortSignal): Promise<void> {
    await this.prepare(signal);
  }

  /** Renders the text that came, a few milliseconds at a time (a long text lets Ctrl-C in); false when aborted. */
  private prepare(signal?: AbortSignal): Promise<boolean> {
    return this.feed.prepare(this.io.columns - 1, signal);
  }

  /** Lines to play: the agent's text as it is shown (agent-feed.ts), the rest as it prints. */
  private enqueue(lines: TranscriptLine[], final = false): void {
    const items = this.feed.items(lines, (l) => ({
      kind: 'other',
      emit: () => (this.live && isTodoLine(l) ? this.liveRows.todo(l) : this.emit([l])),
    }));
    // The line still coming shows as it is so far, where rows can be redrawn.
    if (final) this.feed.close();
    else if (this.redraw) this.feed.tail(this.t.partialLine());
    this.playback?.push(items);
  }

  status(text: string): void {
    if (this.spinner) this.spinner.update(text);
    else if (this.mode === 'plain') this.io.outLine(`note\t${text}`);
  }

  progress(text: string | undefined): void {
    this.spinner?.update(text ?? stateLabel(this.lastState));
  }

  note(text: string): void {
    this.playback?.flush();
    this.io.errLine(text);
  }

  cancelled(notice: CancelNotice): void {
    this.flushPlayback();
    this.emit([{ kind: 'note', text: notice.message }]);
  }

  end(end: RunEnd): void {
    this.flushPlayback();
    if (this.playback) {
      this.enqueue(this.repeats.without(this.t.finish(), true), true);
      this.flushPlayback();
    } else this.print(this.t.finish(), { final: true });
    this.stop();
    this.printHeader();
    if (this.mode === 'plain') this.io.outLine(plainEndLine(end));
    else this.io.outLine(this.io.prose(endLine(end, style(this.io), this.printedErrors), 'stdout'));
  }

  /**
   * What the playback holds, at once. After Ctrl-C cut a long rendering short, text not rendered
   * yet is said in one line instead: rendering it would keep the command from ending.
   */
  private flushPlayback(): void {
    if (this.feed.tooLongAfterInterrupt(this.io.columns - 1, this.playback?.rowsLeft() ?? 0)) {
      this.feed.drop();
      this.playback?.drop();
      this.emit([{ kind: 'note', text: 'Interrupted: the rest of the agent’s text is not shown.' }]);
      return;
    }
    this.playback?.flush();
  }

  stop(): void {
    this.flushPlayback();
    this.spinner?.stop();
    this.spinner = undefined;
    // The task list as it ended stays in the scrollback.
    const todos = this.liveRows.final();
    if (todos) this.emit([todos]);
  }

  /** A conversation: what is typed during the run, kept for the next message, shown under the task list. */
  typed(text: string): void {
    if (this.live) this.liveRows.typing(text);
  }

  private print(all: TranscriptLine[], opts: { final?: boolean } = {}): void {
    this.emit(this.mode === 'pretty' ? this.repeats.without(all, opts.final) : all);
  }

  private emit(lines: TranscriptLine[]): void {
    for (const l of lines) {
      if (l.kind === 'error') this.printedErrors.add(l.message.trim());
      if (l.kind === 'unread') this.debug?.(`unread ${l.detail}`);
    }
    if (lines.length === 0) return;
    const c = style(this.io);
    const width = this.io.columns - 1;
    // Sentences (notes, errors, results) wrap at word boundaries on a terminal; the agent's text
    // is laid out by its playback, or here as the playback lays it (a recap of a run attached to):
    // consecutive lines of it as one Markdown text where it is rendered.
    const text: string[] = [];
    let markdown: string[] = [];
    const rendered = () => {
      if (markdown.length) append(text, this.feed.render(markdown, width) ?? []);
      markdown = [];
    };
    for (const l of lines) {
      if (this.mode === 'pretty' && l.kind === 'text' && this.feed.rendered) {
        markdown.push(l.text);
        continue;
      }
      rendered();
      if (this.mode === 'plain') append(text, formatPlain(l));
      else
        for (const t of formatPretty(l, c))
          text.push(
            WRAPPED.has(l.kind)
              ? this.io.prose(t, 'stdout')
              : l.kind === 'text' && this.io.stdoutIsTTY
                ? wrapRows(t.replace(/\t/g, '    '), width).join('\n')
                : t,
          );
    }
    rendered();
    if (text.length === 0) return;
    this.write(`${text.join('\n')}\n`);
  }

  /** Writes to stdout, clearing the spinner (stderr, same terminal) while it does; `rewrite` replaces that many rows. */
  private write(text: string, rewrite = 0): void {
    const print = () =>
      rewrite && canRewrite(this.io, rewrite) ? this.io.rewriteRows(rewrite, text) : this.io.out(text);
    if (this.spinner) this.spinner.pause(print);
    else print();
  }
}
