// A spinner on stderr with elapsed time, only when stderr is a terminal and --json is off. It is
// one status line (IO.status), cut to the terminal's width so that clearing it never has more
// than one row to clear, and redrawn by a timer that never blocks: Ctrl-C and SIGTERM are
// handled between two frames. On a terminal of zero or absurd size (IO.canRedraw) nothing is
// redrawn: each new label is appended as a line. Everything else gets a no-op spinner.
import type { Clock } from '../clock.js';
import type { IO } from './io.js';
import { sanitizeInline } from './sanitize.js';
import { style } from './style.js';

export interface Spinner {
  /** Replaces the text after the elapsed time. */
  update(text: string): void;
  /** Stops and clears the spinner line; optionally leaves a final line on stderr. */
  stop(finalLine?: string): void;
  /** Runs fn, which prints (the IO keeps the spinner line below what is printed). */
  pause<T>(fn: () => T): T;
}

const noop: Spinner = { update() {}, stop() {}, pause: (fn) => fn() };

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 120;

export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** Labels as lines, each once: for a terminal that cannot be redrawn. */
function appendOnly(io: IO, text: string): Spinner {
  let last = text;
  io.errLine(sanitizeInline(text));
  return {
    update(t) {
      if (t !== last) io.errLine(sanitizeInline(t));
      last = t;
    },
    stop(finalLine) {
      if (finalLine) io.errLine(finalLine);
    },
    pause: (fn) => fn(),
  };
}

export async function startSpinner(io: IO, clock: Clock, text: string): Promise<Spinner> {
  if (!io.canAnimate) return noop;
  if (!io.canRedraw) return appendOnly(io, text);
  const started = clock.now();
  const c = style(io);
  let label = text;
  let frame = 0;
  let stopped = false;
  const draw = () => {
    if (stopped) return;
    io.status(`${c.cyan(FRAMES[frame++ % FRAMES.length])} ${label} ${formatElapsed(clock.now() - started)}`);
  };
  draw();
  const timer = setInterval(draw, FRAME_MS);
  timer.unref();
  return {
    update(t) {
      label = t;
      draw();
    },
    stop(finalLine) {
      stopped = true;
      clearInterval(timer);
      io.status(undefined);
      if (finalLine) io.errLine(finalLine);
    },
    pause: (fn) => fn(),
  };
}
