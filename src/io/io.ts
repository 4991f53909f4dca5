// The IO object owns the streams, their TTY-ness and the colour policy (docs/scripting.md "Output
// contract"). Commands never touch process.stdout: tests build an IO over buffers.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { isatty } from 'node:tty';

export type ColorLevel = 0 | 1 | 2 | 3;

export interface IOStreams {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

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
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  colorLevel: ColorLevel;
  /** --json: stdout carries exactly one JSON document (or NDJSON for streams). */
  json = false;
  quiet = false;

  readonly #streams: IOStreams;

  constructor(
    streams: IOStreams,
    colorLevel: ColorLevel,
    tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean },
  ) {
    this.#streams = streams;
    this.stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.stdinIsTTY = tty?.stdin ?? Boolean(streams.stdin.isTTY);
    this.stdoutIsTTY = tty?.stdout ?? Boolean(streams.stdout.isTTY);
    this.stderrIsTTY = tty?.stderr ?? Boolean(streams.stderr.isTTY);
    this.colorLevel = colorLevel;
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

  /** Width for tables and wrapping; 80 when unknown. */
  get columns(): number {
    return this.stdout.columns ?? this.stderr.columns ?? 80;
  }

  out(text: string): void {
    this.stdout.write(text);
  }

  /** Writes honouring back-pressure, for long streamed output (memory stays flat). */
  async write(text: string): Promise<void> {
    if (!this.stdout.write(text)) await new Promise<void>((resolve) => this.stdout.once('drain', () => resolve()));
  }

  outLine(text = ''): void {
    this.stdout.write(`${text}\n`);
  }

  err(text: string): void {
    this.stderr.write(text);
  }

  errLine(text = ''): void {
    this.stderr.write(`${text}\n`);
  }

  /** A hint or progress note on stderr; silent under --quiet and --json. */
  info(text: string): void {
    if (!this.quiet && !this.json) this.errLine(text);
  }

  /** A warning on stderr; silent under --json (the JSON document says what matters). */
  warn(text: string): void {
    if (!this.json) this.errLine(`warning: ${text}`);
  }

  printJson(value: unknown): void {
    this.outLine(JSON.stringify(value, null, this.stdoutIsTTY ? 2 : undefined));
  }

  printJsonLine(value: unknown): void {
    this.outLine(JSON.stringify(value));
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
    stdin: isatty(0),
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
  Object.assign(stdout, { columns: opts.columns ?? 100 });
  Object.assign(stderr, { columns: opts.columns ?? 100 });
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
