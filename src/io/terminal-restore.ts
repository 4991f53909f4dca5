// Every prompt, picker and live block gives the terminal back as it found it — its mode, the
// cursor, the screen — on SIGINT, SIGTERM, SIGHUP and uncaught errors, from here (README.md
// "Reliability"). The way out is the same for every signal (core/run.ts): the context's signal
// is aborted, which cancels the prompt on the screen (show-prompt.ts: enquirer draws it as
// cancelled, leaves raw mode and shows the cursor) and releases the keys (keyguard.ts) as the
// command unwinds; the process exits once it has. What does not unwind — a second signal, the
// grace period running out, an uncaught error — ends through exitRestoring(), which puts the
// terminal back itself: cooked mode (Node restores the exact modes it found at exit; raw mode
// is left here first), the cursor shown, the live block cleared and a line cut short ended, so
// the shell's prompt starts on a line of its own.
import type { IO } from './io.js';

const SHOW_CURSOR = '\u001b[?25h';

/** What is on the screen now that a way out must close: a prompt drawn by enquirer, per IO. */
const prompting = new WeakSet<IO>();

let exitHooked = false;

/**
 * A prompt is drawn (true) or gone (false): until it is gone, a way out ends its line and shows
 * the cursor — also on a plain process.exit() (an early exit elsewhere), through an exit hook.
 */
export function markPrompt(io: IO, shown: boolean): void {
  if (!shown) {
    prompting.delete(io);
    return;
  }
  prompting.add(io);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    if (prompting.has(io)) restoreTerminal(io);
  });
}

/** What show-prompt.ts gets from enquirer's prompt: the cursor hidden and shown by it. */
interface HidingPrompt {
  stdout: { write(text: string): unknown };
  cursorShow(): void;
  cursorHide(): void;
  on(event: 'close', fn: () => void): unknown;
}

/**
 * Lets a prompt hide the cursor without enquirer's own signal listeners (dropSignalListenersSince),
 * which a prompt hiding it later would add again: the cursor is shown when it closes, and by
 * restoreTerminal() on every other way out.
 */
export function tamePrompt(prompt: HidingPrompt): void {
  prompt.cursorHide = function (this: HidingPrompt) {
    this.stdout.write('\u001b[?25l');
    this.on('close', () => this.cursorShow());
  };
}

type RawStdin = IO['stdin'] & { isRaw?: boolean; setRawMode?: (raw: boolean) => unknown };

/** Puts the terminal back: raw mode left, the live block cleared, a line cut short ended, the cursor shown. */
export function restoreTerminal(io: IO): void {
  // After a hangup the terminal is gone: what is written to it fails, and must not end in an error.
  const stderr = io.stderr as IO['stderr'] & { on?: (event: string, fn: () => void) => unknown };
  stderr.on?.('error', () => {});
  try {
    if (io.stdinIsTTY) {
      const stdin = io.stdin as RawStdin;
      if (stdin.isRaw) stdin.setRawMode?.(false);
    }
  } catch {
    // The terminal is gone.
  }
  if (!io.stderrIsTTY) return;
  try {
    io.status(undefined);
    const endLine = prompting.has(io) || io.midLine;
    prompting.delete(io);
    io.stderr.write(`${endLine ? '\n' : ''}${SHOW_CURSOR}`);
  } catch {
    // The terminal is gone.
  }
}

/** Ends the process with `code`, the terminal put back first. */
export function exitRestoring(io: IO, code: number): never {
  restoreTerminal(io);
  process.exit(code);
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Listeners = NodeJS.SignalsListener[];

/** The signal listeners there are now, to tell which ones a library adds. */
export function signalListeners(): Map<NodeJS.Signals, Listeners> {
  return new Map(SIGNALS.map((s) => [s, process.listeners(s)]));
}

/**
 * Removes the signal listeners added since `before`. enquirer adds its own to SIGINT and SIGTERM
 * when it hides the cursor, and they call process.exit at once: the prompt is then neither
 * cancelled nor the command unwound, and core/run.ts, which defers to a listener it does not
 * know, never gets the signal. Without them every signal takes the one way out above.
 */
export function dropSignalListenersSince(before: Map<NodeJS.Signals, Listeners>): void {
  for (const s of SIGNALS) {
    const known = before.get(s) ?? [];
    for (const l of process.listeners(s)) if (!known.includes(l)) process.off(s, l);
  }
}
