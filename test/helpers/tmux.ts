// Drives a command in a real terminal: a detached tmux session of a fixed size, keys sent with
// send-keys, the screen read with capture-pane. For the interactive flows (enquirer prompts,
// spinners) that only a TTY shows. Each session has its own tmux server (its own socket), so
// test files running side by side never share one, nor the user's.
// Everything goes through one tmux client in control mode (tmux(1) "CONTROL MODE") kept for the
// session, which also made it: a command written to its standard input, its output read back
// between %begin and %end, with no process started for it (a tmux client a command cost about
// 3 ms of CPU and blocked the test's process, and the emulator of the test that usually runs in
// it, while it ran; this about 0.2 ms, without blocking). The client runs the commands in the
// order written, so keys sent go before a later reading of the screen even when the send is not
// awaited. The same client says when the pane printed (%output), so the screen is read again
// when something was printed (or every quarter second, whatever), never while nothing was. A
// control client without a size of its own leaves the window at the size the session was made
// with.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
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
   * Settles once the session exists (%session-changed: the client is in it) or the client is
   * gone. The server reads the client's input as soon as it connects, maybe before the command
   * that makes the session ran: a command written then finds no session ("no current target").
   */
  private readonly ready: Promise<void>;
  private isReady: () => void = () => {};

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
    // The server's history limit applies to panes made after it is set: set it first. The
    // control client runs these, then takes commands on its standard input.
    const history = size.history
      ? ['start-server', ';', 'set-option', '-g', 'history-limit', String(size.history), ';']
      : [];
    const made = ['new-session', '-s', this.name, '-x', String(size.cols), '-y', String(size.rows), line];
    this.ready = new Promise((resolve) => {
      this.isReady = resolve;
    });
    this.control = spawn('tmux', ['-L', this.name, '-C', ...history, ...made], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.readControl();
    // Never what keeps the test's process alive: a wait does that while it waits.
    this.control.unref();
    for (const stream of [this.control.stdin, this.control.stdout, this.control.stderr])
      (stream as unknown as { unref(): void }).unref();
  }

  /**
   * Reads the control client's output: each command's block (%begin … %end or %error, with the
   * same time, number and flags, so no line of the screen can end it) goes to its reader; the
   * blocks of the commands that started the client (flags 0, not written by us) go to none, but
   * a failure of theirs ends the session; %output says the pane printed.
   */
  private readControl(): void {
    let stderr = '';
    const close = (why: string) => {
      this.closed ??= new Error(`tmux control client ${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}`);
      for (const reply of this.replies.splice(0)) reply.reject(this.closed);
      for (const wake of this.onPrinted.splice(0)) wake();
      this.isReady();
    };
    let pending = '';
    let block: { lines: string[]; end: string; error: string; ours: boolean } | undefined;
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
          const ours = block.ours;
          block = undefined;
          if (!ours) {
            if (failed) close(`could not start the session (${out.trim()})`);
            continue;
          }
          const reply = this.replies.shift();
          if (failed) reply?.reject(new Error(`tmux: ${out.trim()}`));
          else reply?.resolve(out);
        } else if (line.startsWith('%begin ')) {
          const rest = line.slice('%begin '.length);
          // time, number and flags: flags 1 for a command of this client's input.
          block = { lines: [], end: `%end ${rest}`, error: `%error ${rest}`, ours: rest.split(' ')[2] === '1' };
        } else if (line.startsWith('%session-changed ')) {
          this.isReady();
        } else if (line.startsWith('%output ') || line.startsWith('%extended-output ')) {
          this.printed++;
          for (const wake of this.onPrinted.splice(0)) wake();
        }
      }
    });
    this.control.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    this.control.on('error', (err) => close(`failed (${err.message})`));
    this.control.on('exit', (code, signal) => close(`exited (${signal ?? code})`));
    this.control.stdin.on('error', () => {});
  }

  /** Runs a tmux command (its words, each quoted) through the control client: its output. */
  private command(...args: string[]): Promise<string> {
    // Written in the order called: the callbacks of one promise run in the order they were added.
    return this.ready.then(
      () =>
        new Promise((resolve, reject) => {
          if (this.closed) return reject(this.closed);
          this.replies.push({ resolve, reject });
          this.control.stdin.write(`${args.map(tmuxWord).join(' ')}\n`);
        }),
    );
  }

  /**
   * Sends keys (send-keys' arguments: key names, or `-l` and text). They reach the terminal
   * before anything read or sent after through this session; await it before acting on the
   * terminal another way (a signal, a file).
   */
  send(...keys: string[]): Promise<void> {
    const sent = this.command('send-keys', '-t', this.name, ...keys).then(() => undefined);
    // Not awaited, a failure shows in the next wait (the client is closed), never as unhandled.
    sent.catch(() => {});
    return sent;
  }

  /** capture-pane's arguments for the whole transcript (scrollback included), without colours. */
  private capture(): string[] {
    return ['capture-pane', '-p', '-J', '-S', `-${this.scrollback}`, '-t', this.name];
  }

  /** The whole transcript (scrollback included), without colours. */
  screen(): Promise<string> {
    return this.command(...this.capture());
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
        last = await this.screen();
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
  async cursorShown(): Promise<boolean> {
    return (await this.command('display-message', '-p', '-t', this.name, '#{cursor_flag}')).trim() === '1';
  }

  /** Ends the session's server (and what runs in it); resolves once its control client is gone. */
  kill(): Promise<void> {
    const gone = new Promise<void>((resolve) => {
      if (this.control.exitCode !== null || this.control.signalCode !== null) resolve();
      else this.control.once('exit', () => resolve());
    });
    void this.ready.then(() => {
      if (this.closed) spawn('tmux', ['-L', this.name, 'kill-server'], { stdio: 'ignore' }).unref();
      else this.control.stdin.write('kill-server\n');
    });
    return gone;
  }
}

/**
 * A word of a tmux command line: in double quotes, where a backslash escapes (tmux(1) "PARSING
 * SYNTAX"): `\\`, `"` and `$` (which would expand a variable) escaped, a control character as
 * an octal escape (a newline would end the command).
 */
function tmuxWord(word: string): string {
  const escaped = word.replace(/[\\"$]|[\u0000-\u001f\u007f]/g, (c) =>
    /[\\"$]/.test(c) ? `\\${c}` : `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`,
  );
  return `"${escaped}"`;
}
