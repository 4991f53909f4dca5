// Drives a command in a real terminal: a detached tmux session of a fixed size, keys sent with
// send-keys, the screen read with capture-pane. For the interactive flows (enquirer prompts,
// spinners) that only a TTY shows. Each session has its own tmux server (its own socket), so
// test files running side by side never share one, nor the user's. Waiting reads the screen
// without blocking: the emulator of a test usually runs in the test's own process, and a
// synchronous tmux call every few milliseconds would starve it on a loaded machine. Nor does it
// read the screen while nothing was printed: the pane's output is piped to a file (pipe-pane),
// and the screen is read again when the file has grown (or every quarter second, whatever).
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './wait-for.js';

const execFileAsync = promisify(execFile);

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export class TmuxSession {
  readonly name = `sbtest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  /** Lines of scrollback screen() reads (tmux keeps 2000 unless `history` says more). */
  private readonly scrollback: number;

  /** Where the pane's output goes as it is printed: its size says whether anything was. */
  private readonly output = join(tmpdir(), `${this.name}.out`);

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
    this.tmux(
      ...history,
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      String(size.cols),
      '-y',
      String(size.rows),
      line,
      ';',
      'pipe-pane',
      '-t',
      this.name,
      `cat >> ${quote(this.output)}`,
    );
  }

  /** Bytes the pane has printed so far, as far as its pipe has written them (-1 before it has). */
  private async printed(): Promise<number> {
    return (await stat(this.output).catch(() => ({ size: -1 }))).size;
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

  /** The screen as screen() reads it, without blocking the process meanwhile. */
  private async screenLater(): Promise<string> {
    const { stdout } = await execFileAsync('tmux', ['-L', this.name, ...this.capture()], { encoding: 'utf8' });
    return stdout;
  }

  /** Waits until test(screen) holds; fails with the screen after timeoutMs. */
  waitFor(test: RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
    const ok = typeof test === 'function' ? test : (s: string) => test.test(s);
    let last = '';
    // The screen is read when the pane printed since the last reading, and at least every 250 ms
    // (a pipe that lags, a screen that changed without output): a check of a screen that did
    // not change gives what it gave.
    let seen = Number.NaN;
    let readAt = 0;
    return waitFor(
      async () => {
        const printed = await this.printed();
        if (printed === seen && Date.now() - readAt < 250) return false;
        seen = printed;
        readAt = Date.now();
        last = await this.screenLater();
        return ok(last) && last;
      },
      { what: `${test} on the screen`, deadlineMs: timeoutMs, intervalMs: 25, detail: () => last },
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
    rmSync(this.output, { force: true });
  }
}
