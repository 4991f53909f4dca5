// The IO object owns the streams, their TTY-ness and the colour level (color-level.ts decides
// it; docs/scripting.md "Output contract"). Commands never touch process.stdout: tests build an IO over buffers. It is also the
// output boundary: every writer cleans what it is given (sanitize.ts), so a string from the
// service that reached a sentence unsanitized still cannot drive the terminal.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { ColorLevel } from './color-level.js';
import { CTRL_C_ECHO, LiveBlock, REWRITE_ROW, saneSize } from './live-block.js';
import { SecretMask } from './mask.js';
import { forJson, forTerminal, jsonText } from './sanitize.js';
import { wrapText } from './width.js';

export interface IOStreams {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number; rows?: number };
}

export class IO {
  readonly stdout: IOStreams['stdout'];
  readonly stderr: IOStreams['stderr'];
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  colorLevel: ColorLevel;
  /** --json: stdout carries exactly one JSON document (or NDJSON for streams). */
  json = false;
  quiet = false;
  /** The terminal moves its cursor (not TERM=dumb): where it does not, progress is appended as lines. */
  cursorMoves = true;
  /** Render the agent's Markdown (--no-markdown). */
  markdown = true;
  /** The environment (the renderer reads the terminal's hyperlinks there). */
  env: Record<string, string | undefined> = {};
  /**
   * The exit code when stdout's reader goes away (`| head -1`): 0 for what only prints, set by a
   * command whose outcome is not all printed yet (a batch: the worst of what ended, 8 for the
   * rest). It may say so on stderr first.
   */
  onReaderGone: () => number = () => 0;
  /** The tokens handed to a client: every writer prints their masks instead (mask.ts). */
  readonly secrets = new SecretMask();

  readonly #streams: IOStreams;
  #stdinIsTTY: boolean | (() => boolean);
  #stdoutIsPipe: boolean | (() => boolean);
  /** The live block (a spinner, a task list) at the bottom of stderr. */
  readonly #live = new LiveBlock(this);
  /** The last text written to the terminal did not end its line. */
  #midLine = false;
  #writes = 0;

  constructor(
    streams: IOStreams,
    colorLevel: ColorLevel,
    tty?: {
      stdin?: boolean | (() => boolean);
      stdout?: boolean;
      stderr?: boolean;
      /** stdout is a pipe (isPipe): asked once, when something would be redrawn. */
      stdoutPipe?: boolean | (() => boolean);
    },
  ) {
    this.#streams = streams;
    this.stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.#stdinIsTTY = tty?.stdin ?? (() => Boolean(streams.stdin.isTTY));
    this.stdoutIsTTY = tty?.stdout ?? Boolean(streams.stdout.isTTY);
    this.stderrIsTTY = tty?.stderr ?? Boolean(streams.stderr.isTTY);
    this.#stdoutIsPipe = tty?.stdoutPipe ?? false;
    this.colorLevel = colorLevel;
  }

  /**
   * stdout goes into a pipe (`| tee`, `| cat`, `| grep`): what reads it may print to the same
   * terminal as stderr, between the rows of a live block, which would then be redrawn over
   * them. A file or /dev/null (`> file`) is not a pipe.
   */
  get stdoutIsPipe(): boolean {
    if (typeof this.#stdoutIsPipe === 'function') this.#stdoutIsPipe = this.#stdoutIsPipe();
    return this.#stdoutIsPipe;
  }

  /** Asked only when a prompt may be shown (node:tty, and process.stdin, cost start-up time). */
  get stdinIsTTY(): boolean {
    if (typeof this.#stdinIsTTY === 'function') this.#stdinIsTTY = this.#stdinIsTTY();
    return this.#stdinIsTTY;
  }

  /** Read only when a command reads it: creating process.stdin costs start-up time. */
  get stdin(): IOStreams['stdin'] {
    return this.#streams.stdin;
  }

  get color(): boolean {
    return this.colorLevel > 0;
  }

  /** The last text written to the terminal did not end its line (terminal-restore.ts ends it on the way out). */
  get midLine(): boolean {
    return this.#midLine;
  }

  /** Spinners and progress go to stderr, only when it is a terminal and --json is off. */
  get canAnimate(): boolean {
    return this.stderrIsTTY && !this.json && !this.quiet;
  }

  /** Width for tables and wrapping; 80 when unknown, zero or absurd. */
  get columns(): number {
    const c = this.stdout.columns ?? this.stderr.columns;
    return saneSize(c, 10) ? c : 80;
  }

  /** Columns the live block's last row may take: it keeps room for the `^C` echo (live-block.ts). */
  get liveLineWidth(): number {
    const c = this.stderr.columns;
    return (saneSize(c, 10) ? c : 80) - 1 - CTRL_C_ECHO;
  }

  /**
   * Whether stderr is a terminal whose last lines can be redrawn in place (a spinner): a TTY of
   * a sane size that moves its cursor, and no pipe on stdout whose reader may print to that
   * same terminal between two redraws (docs/scripting.md "Output contract"). Elsewhere progress
   * is appended as lines.
   */
  get canRedraw(): boolean {
    const { columns, rows } = this.stderr;
    return (
      this.stderrIsTTY &&
      this.cursorMoves &&
      saneSize(columns, 10) &&
      (rows === undefined || saneSize(rows, 2)) &&
      (this.stdoutIsTTY || !this.stdoutIsPipe)
    );
  }

  /**
   * Draws a one-line status at the bottom of stderr, replacing the previous one; undefined
   * clears it. Only where canRedraw; what is written meanwhile goes above it.
   */
  status(line: string | undefined): void {
    this.liveBlock(line === undefined ? undefined : [line]);
  }

  /**
   * Holds a block of lines at the bottom of stderr (a task list above a spinner), replacing the
   * previous one; undefined or [] clears it. What is written meanwhile goes above it, so the
   * scrollback stays append-only. Each line is cut to the terminal's width, read anew at every
   * draw, and the block to its height; a resize redraws it at once. Only where canRedraw.
   */
  liveBlock(lines: string[] | undefined): void {
    this.#live.set(lines);
  }

  /** The boundary: under --json, stdout is JSON and gets escapes; everything else is cleaned. Tokens are masked in both. */
  #clean(text: string, stream: 'stdout' | 'stderr'): string {
    return this.secrets.apply(stream === 'stdout' && this.json ? forJson(text) : forTerminal(text, this.color));
  }

  /**
   * Writes cleaned text; the live block on the same terminal is lifted out of the way, then drawn
   * again below. `control` is our own cursor move, written raw after the status is lifted.
   */
  #write(text: string, stream: 'stdout' | 'stderr', control = ''): boolean {
    const clean = this.#clean(text, stream);
    if (stream === 'stdout' && !this.stdoutIsTTY) return this.stdout.write(clean);
    this.#live.clear();
    if (control) this[stream].write(control);
    const ok = this[stream].write(clean);
    this.#writes++;
    if (clean !== '') this.#midLine = !clean.endsWith('\n');
    if (this.#live.held) this.#live.draw();
    return ok;
  }

  out(text: string): void {
    this.#write(text, 'stdout');
  }

  /** Writes of text to a terminal so far (render/playback.ts redraws its rows only if none came between). */
  get writes(): number {
    return this.#writes;
  }

  /** Rows the live block takes on the screen. */
  get blockRows(): number {
    return this.#live.rows;
  }

  /** Replaces stdout's last `rows` rows with `text` (rows ending with newlines). */
  rewriteRows(rows: number, text: string): void {
    this.#write(text, 'stdout', rows === 1 ? REWRITE_ROW : `\u001b[${rows}A\r\u001b[J`);
  }

  /** Writes honouring back-pressure, for long streamed output (memory stays flat). */
  async write(text: string): Promise<void> {
    if (!this.#write(text, 'stdout')) await new Promise<void>((resolve) => this.stdout.once('drain', () => resolve()));
  }

  outLine(text = ''): void {
    this.#write(`${text}\n`, 'stdout');
  }

  /**
   * A file's bytes, unchanged, for `> file` (storage-backup read): only when stdout is not a
   * terminal; on a terminal they are shown cleaned like any text.
   */
  async writeFileBytes(bytes: Buffer): Promise<void> {
    if (this.stdoutIsTTY) return this.out(bytes.toString('utf8'));
    await new Promise<void>((resolve, reject) => this.stdout.write(bytes, (err) => (err ? reject(err) : resolve())));
  }

  err(text: string): void {
    this.#write(text, 'stderr');
  }

  /** A line on stderr: sentences, hints, progress; on a terminal wrapped to fit it (prose(); never under --json). */
  errLine(text = ''): void {
    this.#write(`${this.prose(text)}\n`, 'stderr');
  }

  /**
   * Prose for stderr (or stdout): on a terminal, wrapped at word boundaries to its width now (a
   * resized window is followed), commands kept whole (width.ts); elsewhere as it is. Lines that
   * fit are left as they are.
   */
  prose(text: string, stream: 'stdout' | 'stderr' = 'stderr'): string {
    // Under --json, stderr carries JSON documents (errors), which a newline would break.
    if (this.json) return text;
    // Masked before wrapping: a token broken across two lines would not be recognized.
    text = this.secrets.apply(text);
    const c = this[stream].columns;
    const tty = stream === 'stdout' ? this.stdoutIsTTY : this.stderrIsTTY;
    return tty && saneSize(c, 10) ? wrapText(text, c) : text;
  }

  /** A hint or progress note on stderr; silent under --quiet and --json. */
  info(text: string): void {
    if (!this.quiet && !this.json) this.errLine(text);
  }

  /** A warning on stderr; silent under --json (the JSON document says what matters). */
  warn(text: string): void {
    if (!this.json) this.errLine(`warning: ${text}`);
  }

  /** One JSON document on stdout; control and bidi characters in its strings as \uXXXX escapes. */
  printJson(value: unknown): void {
    this.outLine(jsonText(value, this.stdoutIsTTY ? 2 : undefined));
  }

  printJsonLine(value: unknown): void {
    this.outLine(jsonText(value));
  }
}

/** A buffered IO for tests: what was written is read back with stdoutText() / stderrText(). */
export interface TestIO extends IO {
  stdoutText(): string;
  stderrText(): string;
  stdinStream: PassThrough;
}

export function createTestIO(
  opts: {
    tty?: boolean;
    stdinTTY?: boolean;
    stdoutTTY?: boolean;
    stderrTTY?: boolean;
    colorLevel?: ColorLevel;
    columns?: number;
    rows?: number;
    /** TERM=dumb: a terminal that does not move its cursor. */
    dumb?: boolean;
    /** stdout is a pipe (`| tee`) rather than a file. */
    stdoutPipe?: boolean;
  } = {},
): TestIO {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => outChunks.push(c));
  stderr.on('data', (c: Buffer) => errChunks.push(c));
  const tty = opts.tty ?? false;
  Object.assign(stdout, { columns: opts.columns ?? 100, rows: opts.rows });
  Object.assign(stderr, { columns: opts.columns ?? 100, rows: opts.rows });
  const io = new IO({ stdin, stdout, stderr }, opts.colorLevel ?? 0, {
    stdin: opts.stdinTTY ?? tty,
    stdout: opts.stdoutTTY ?? tty,
    stderr: opts.stderrTTY ?? tty,
    stdoutPipe: opts.stdoutPipe,
  }) as TestIO;
  if (opts.dumb) io.cursorMoves = false;
  io.stdoutText = () => Buffer.concat(outChunks).toString('utf8');
  io.stderrText = () => Buffer.concat(errChunks).toString('utf8');
  io.stdinStream = stdin;
  return io;
}
