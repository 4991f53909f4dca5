// The IO object owns the streams, their TTY-ness and the colour policy (docs/scripting.md "Output
// contract"). Commands never touch process.stdout: tests build an IO over buffers. It is also the
// output boundary: every writer cleans what it is given (sanitize.ts), so a string from the
// service that reached a sentence unsanitized still cannot drive the terminal.
import { createRequire } from 'node:module';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { forJson, forTerminal, jsonText } from './sanitize.js';
import { fitWidth } from './width.js';

export type ColorLevel = 0 | 1 | 2 | 3;

export interface IOStreams {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number; rows?: number };
}

/**
 * A size a terminal can be redrawn in. A terminal may say 0 × 0 (`stty cols 0`, a pty nobody
 * sized yet) or something absurd; redrawing there (a spinner clearing the lines it wrapped
 * onto) has no sensible meaning, so such a terminal gets lines appended instead.
 */
export const saneSize = (n: number | undefined, min: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= 10_000;

/** Goes back to the start of the status line and clears it. */
const CLEAR_LINE = '\r\u001b[2K';
/** Cursor up one row, to its first column, and clear it: the one cursor move of the run view's playback. */
export const REWRITE_ROW = '\u001b[1A\r\u001b[2K';

export interface ColorInputs {
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
  noColorFlag: boolean;
}

/**
 * chalk and cli-table3 do not honour every convention by themselves, so the level is decided
 * here once: NO_COLOR (any value), --no-color, CLICOLOR=0, TERM=dumb and a non-TTY turn it
 * off; FORCE_COLOR / CLICOLOR_FORCE force it on (FORCE_COLOR=0 forces it off).
 */
export function decideColorLevel({ env, stdoutIsTTY, noColorFlag }: ColorInputs): ColorLevel {
  if (noColorFlag) return 0;
  if (env.NO_COLOR !== undefined) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    const n = Number(force);
    return (n >= 1 && n <= 3 ? n : 1) as ColorLevel;
  }
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '0') return 1;
  if (env.CLICOLOR === '0') return 0;
  if (env.TERM === 'dumb') return 0;
  if (!stdoutIsTTY) return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (env.TERM && /256/.test(env.TERM)) return 2;
  return 1;
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

  readonly #streams: IOStreams;
  #stdinIsTTY: boolean | (() => boolean);
  /** The status line (a spinner) at the bottom of stderr, if any; whether it is on the screen now. */
  #status: string | undefined;
  #statusShown = false;
  /** The last text written to the terminal did not end its line. */
  #midLine = false;

  constructor(
    streams: IOStreams,
    colorLevel: ColorLevel,
    tty?: { stdin?: boolean | (() => boolean); stdout?: boolean; stderr?: boolean },
  ) {
    this.#streams = streams;
    this.stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.#stdinIsTTY = tty?.stdin ?? (() => Boolean(streams.stdin.isTTY));
    this.stdoutIsTTY = tty?.stdout ?? Boolean(streams.stdout.isTTY);
    this.stderrIsTTY = tty?.stderr ?? Boolean(streams.stderr.isTTY);
    this.colorLevel = colorLevel;
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

  /** Spinners and progress go to stderr, only when it is a terminal and --json is off. */
  get canAnimate(): boolean {
    return this.stderrIsTTY && !this.json && !this.quiet;
  }

  /** Width for tables and wrapping; 80 when unknown, zero or absurd. */
  get columns(): number {
    const c = this.stdout.columns ?? this.stderr.columns;
    return saneSize(c, 10) ? c : 80;
  }

  /**
   * Whether stderr is a terminal whose last line can be redrawn in place (a spinner): a TTY of
   * a sane size. Elsewhere progress is appended as lines.
   */
  get canRedraw(): boolean {
    const { columns, rows } = this.stderr;
    return this.stderrIsTTY && saneSize(columns, 10) && (rows === undefined || saneSize(rows, 2));
  }

  /**
   * Draws a one-line status at the bottom of stderr, replacing the previous one; undefined
   * clears it. Only where canRedraw; what is written meanwhile goes above it.
   */
  status(line: string | undefined): void {
    if (!this.canRedraw) return;
    const width = (this.stderr.columns ?? 80) - 1;
    this.#status =
      line === undefined ? undefined : fitWidth(forTerminal(line, this.color).replace(/[\n\t]/g, ' '), width);
    this.#drawStatus();
  }

  #drawStatus(): void {
    if (this.#statusShown) this.stderr.write(CLEAR_LINE);
    // Never over a line cut short (no newline yet): it would be erased with the status.
    this.#statusShown = this.#status !== undefined && !this.#midLine;
    if (this.#statusShown) this.stderr.write(this.#status as string);
  }

  /** The boundary: under --json, stdout is JSON and gets escapes; everything else is cleaned. */
  #clean(text: string, stream: 'stdout' | 'stderr'): string {
    return stream === 'stdout' && this.json ? forJson(text) : forTerminal(text, this.color);
  }

  /**
   * Writes cleaned text; a status line on the same terminal is lifted out of the way, then drawn
   * again below. `control` is our own cursor move, written raw after the status is lifted.
   */
  #write(text: string, stream: 'stdout' | 'stderr', control = ''): boolean {
    const clean = this.#clean(text, stream);
    if (stream === 'stdout' && !this.stdoutIsTTY) return this.stdout.write(clean);
    if (this.#statusShown) {
      this.stderr.write(CLEAR_LINE);
      this.#statusShown = false;
    }
    if (control) this[stream].write(control);
    const ok = this[stream].write(clean);
    if (clean !== '') this.#midLine = !clean.endsWith('\n');
    if (this.#status !== undefined) this.#drawStatus();
    return ok;
  }

  out(text: string): void {
    this.#write(text, 'stdout');
  }

  /**
   * Replaces the last row written to stdout with `text` (which ends with a newline), where
   * stdout is a terminal that redraws; elsewhere `text` is appended.
   */
  rewriteLastRow(text: string): void {
    this.#write(text, 'stdout', this.stdoutIsTTY && this.canRedraw ? REWRITE_ROW : '');
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

  errLine(text = ''): void {
    this.#write(`${text}\n`, 'stderr');
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

export function systemIO(env: Record<string, string | undefined>, noColorFlag: boolean): IO {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const streams = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  return new IO(streams, decideColorLevel({ env, stdoutIsTTY, noColorFlag }), {
    stdin: () => (createRequire(import.meta.url)('node:tty') as typeof import('node:tty')).isatty(0),
    stdout: stdoutIsTTY,
    stderr: Boolean(process.stderr.isTTY),
  });
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
  }) as TestIO;
  io.stdoutText = () => Buffer.concat(outChunks).toString('utf8');
  io.stderrText = () => Buffer.concat(errChunks).toString('utf8');
  io.stdinStream = stdin;
  return io;
}
