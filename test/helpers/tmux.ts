// Drives a command in a real terminal: a detached tmux session of a fixed size, keys sent with
// send-keys, the screen read with capture-pane. For the interactive flows (enquirer prompts,
// spinners) that only a TTY shows. Each session has its own tmux server (its own socket), so
// test files running side by side never share one, nor the user's.
// Waiting reads the screen through one tmux client in control mode (tmux(1) "CONTROL MODE")
// kept for the session: a command written to its standard input, its output read back between
// %begin and %end, with no process started for a reading (a tmux client a reading cost about
// 3 ms of CPU; this about 0.2 ms) and without blocking the process meanwhile (the emulator of a
// test usually runs in the test's own process). The same client says when the pane printed
// (%output), so the screen is read again when something was printed (or every quarter second,
// whatever), never while nothing was. A control client without a size of its own leaves the
// window at the size the session was made with. Keys go with a synchronous send-keys: they are
// in the terminal when send() returns, before anything the test does next.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from 'node:child_process';
import { waitFor } from './wait-for.js';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export class TmuxSession {
  readonly name = `sbtest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  /** Lines of scrollback screen() reads (tmux keeps 2000 unless `history` says more). */
  private readonly scrollback: number;

  /** The control-mode client: commands on its stdin, their output and the notifications on its stdout. */
  private readonly control: ChildProcessWithoutNullStreams;

  /** How many times the pane printed (%output notifications), as the control client said. */
  private printed = 0;

  /** Called once when the pane next prints. */
  private onPrinted: Array<() => void> = [];

  /** The readers of the blocks of output to come, one a command written, in order. */
  private readonly replies: Array<{ resolve: (out: string) => void; reject: (err: Error) => void }> = [];

  /** Why the control client can take no more commands, once it cannot. */
  private closed?: Error;

  /**
   * Starts `argv` with `env` in a new session; the shell keeps the pane open after it exits.
   * `history`: lines of scrollback to keep and read, for a long transcript.
   */
  constructor(
    argv: string[],
    env: Record<string, string>,
    size: { cols: number; rows: number; history?: number } = { cols: 120, rows: 50 },
  ) {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    // The tmux server may be older than this run, with another environment: the code cache goes
    // where the suite says (vitest.config.ts), never to the real home directory.
    const cache = process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {};
    const vars = Object.entries({ ...cache, ...env }).map(([k, v]) => `${k}=${quote(v)}`);
    // A person at a terminal: CI (set when the suite runs in CI, and inherited by the tmux
    // server) would turn every prompt off.
    const line = `env -u CI ${vars.join(' ')} ${argv.map(quote).join(' ')}; echo EXIT=$?; sleep 60`;
    this.scrollback = size.history ?? 500;
    // The server's history limit applies to panes made after it is set: set it first, in one call.
    const history = size.history
      ? ['start-server', ';', 'set-option', '-g', 'history-limit', String(size.history), ';']
      : [];
    this.tmux(...history, 'new-session', '-d', '-s', this.name, '-x', String(size.cols), '-y', String(size.rows), line);
    this.control = spawn('tmux', ['-L', this.name, '-C', 'attach-session', '-t', this.name], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.readControl();
    // Never what keeps the test's process alive: a wait does that while it waits.
    this.control.unref();
    for (const stream of [this.control.stdin, this.control.stdout, this.control.stderr])
      (stream as unknown as { unref(): void }).unref();
  }

  /**
   * Reads the control client's output: each command's block (%begin … %end or %error, with the
   * same time, number and flags, so no line of the screen can end it) goes to its reader, the
   * first to the attach-session that started the client; %output says the pane printed.
   */
  private readControl(): void {
    let pending = '';
    let block: { lines: string[]; end: string; error: string } | undefined;
    let attached = false;
    this.control.stdout.setEncoding('utf8');
    this.control.stdout.on('data', (chunk: string) => {
      pending += chunk;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (block) {
          if (line !== block.end && line !== block.error) {
            block.lines.push(line);
            continue;
          }
          const out = block.lines.map((l) => `${l}\n`).join('');
          const failed = line === block.error;
          block = undefined;
          if (!attached) {
            attached = true;
            continue;
          }
          const reply = this.replies.shift();
          if (failed) reply?.reject(new Error(`tmux: ${out.trim()}`));
          else reply?.resolve(out);
        } else if (line.startsWith('%begin ')) {
          const rest = line.slice('%begin '.length);
          block = { lines: [], end: `%end ${rest}`, error: `%error ${rest}` };
        } else if (line.startsWith('%output ') || line.startsWith('%extended-output ')) {
          this.printed++;
          for (const wake of this.onPrinted.splice(0)) wake();
        }
      }
    });
    let stderr = '';
    this.control.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const close = (why: string) => {
      this.closed ??= new Error(`tmux control client ${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`);
      for (const reply of this.replies.splice(0)) reply.reject(this.closed);
      for (const wake of this.onPrinted.splice(0)) wake();
    };
    this.control.on('error', (err) => close(`failed (${err.message})`));
    this.control.on('exit', (code, signal) => close(`exited (${signal ?? code})`));
    this.control.stdin.on('error', () => {});
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.name, ...args], { encoding: 'utf8' });
  }

  send(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.name, ...keys);
  }

  /** capture-pane's arguments for the whole transcript (scrollback included), without colours. */
  private capture(): string[] {
    return ['capture-pane', '-p', '-J', '-S', `-${this.scrollback}`, '-t', this.name];
  }

  /** The whole transcript (scrollback included), without colours. */
  screen(): string {
    return this.tmux(...this.capture());
  }

  /** The screen as screen() reads it, through the control client, without blocking the process meanwhile. */
  private screenLater(): Promise<string> {
    if (this.closed) return Promise.reject(this.closed);
    const command = this.capture()
      .map((a) => (/^[\w-]+$/.test(a) ? a : `'${a}'`))
      .join(' ');
    return new Promise((resolve, reject) => {
      this.replies.push({ resolve, reject });
      this.control.stdin.write(`${command}\n`);
    });
  }

  /** Resolves when the pane prints, or after `ms`, whichever comes first. */
  private printedOr(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onPrinted = this.onPrinted.filter((f) => f !== done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.onPrinted.push(done);
    });
  }

  /** Waits until test(screen) holds; fails with the screen after timeoutMs. */
  waitFor(test: RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
    const ok = typeof test === 'function' ? test : (s: string) => test.test(s);
    let last = '';
    // The screen is read when the pane printed since the last reading (at most every 25 ms, not
    // at each frame of a spinner), and at least every 250 ms (a screen that changed without a
    // notification): a check of a screen that did not change gives what it gave.
    let seen = Number.NaN;
    let readAt = 0;
    return waitFor(
      async () => {
        if (this.printed === seen) await this.printedOr(readAt + 250 - Date.now());
        const since = Date.now() - readAt;
        if (since < 25) await new Promise((r) => setTimeout(r, 25 - since));
        seen = this.printed;
        readAt = Date.now();
        last = await this.screenLater();
        return ok(last) && last;
      },
      { what: `${test} on the screen`, deadlineMs: timeoutMs, intervalMs: 0, detail: () => last },
    );
  }

  /** Waits until the prompt being asked (the last line starting with "?") matches. */
  waitForPrompt(re: RegExp, timeoutMs?: number): Promise<string> {
    return this.waitFor((s) => {
      const asks = s.split('\n').filter((l) => l.startsWith('? '));
      return asks.length > 0 && re.test(asks[asks.length - 1]);
    }, timeoutMs);
  }

  /** Whether the terminal shows its cursor now (a program may have hidden it with CSI ?25l). */
  cursorShown(): boolean {
    return this.tmux('display-message', '-p', '-t', this.name, '#{cursor_flag}').trim() === '1';
  }

  kill(): void {
    spawnSync('tmux', ['-L', this.name, 'kill-server']);
    this.control.kill();
  }
}
