// A spinner on stderr with elapsed time, only when stderr is a terminal and --json is off. It is
// the last line of the IO's live block (IO.liveBlock), under lines a view may hold in place
// above it (a task list); every line is cut to the terminal's width, so clearing the block never
// has more rows to clear than it drew. It is redrawn by a timer that never blocks: Ctrl-C and
// SIGTERM are handled between two frames. Where the terminal cannot redraw (IO.canRedraw: a size
// of zero or absurd, TERM=dumb) or the caller says not to, each new label is appended as a line
// and nothing is held in place (`live` false). Everything else gets a no-op spinner.
import type { Clock } from '../clock.js';
import type { IO } from './io.js';
import { sanitizeInline } from './sanitize.js';
import { style } from './style.js';

export interface Spinner {
  /** Whether lines are held in place above the spinner (above() shows them). */
  readonly live: boolean;
  /** Replaces the text after the elapsed time. */
  update(text: string): void;
  /** Text after the elapsed time (the credits so far); '' for none. Live spinners only. */
  suffix(text: string): void;
  /** Lines held in place above the spinner's line (a task list); [] for none. Live spinners only. */
  above(lines: string[]): void;
  /**
   * Draws the line after the frame from `render(width)` (a progress line: progress-line.ts)
   * instead of the label and the elapsed time, at every frame and at the width of the moment;
   * undefined goes back to them. Live spinners only.
   */
  line(render: ((width: number) => string) | undefined): void;
  /** Stops and clears the spinner line; optionally leaves a final line on stderr. */
  stop(finalLine?: string): void;
  /** Runs fn, which prints (the IO keeps the spinner line below what is printed). */
  pause<T>(fn: () => T): T;
}

const noop: Spinner = {
  live: false,
  update() {},
  suffix() {},
  above() {},
  line() {},
  stop() {},
  pause: (fn) => fn(),
};

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
    live: false,
    update(t) {
      if (t !== last) io.errLine(sanitizeInline(t));
      last = t;
    },
    suffix() {},
    above() {},
    line() {},
    stop(finalLine) {
      if (finalLine) io.errLine(finalLine);
    },
    pause: (fn) => fn(),
  };
}

export async function startSpinner(
  io: IO,
  clock: Clock,
  text: string,
  opts: { redraw?: boolean } = {},
): Promise<Spinner> {
  if (!io.canAnimate) return noop;
  if (!io.canRedraw || opts.redraw === false) return appendOnly(io, text);
  const started = clock.now();
  const c = style(io);
  let label = text;
  let after = '';
  let lines: string[] = [];
  let render: ((width: number) => string) | undefined;
  let frame = 0;
  let stopped = false;
  const draw = () => {
    if (stopped) return;
    const text = render ? render(io.liveLineWidth - 2) : `${label} ${formatElapsed(clock.now() - started)}${after}`;
    const spin = `${c.cyan(FRAMES[frame++ % FRAMES.length])} ${text}`;
    io.liveBlock([...lines, spin]);
  };
  draw();
  const timer = setInterval(draw, FRAME_MS);
  timer.unref();
  return {
    live: true,
    update(t) {
      label = t;
      draw();
    },
    suffix(t) {
      after = t;
      draw();
    },
    above(l) {
      lines = l;
      draw();
    },
    line(r) {
      render = r;
      draw();
    },
    stop(finalLine) {
      stopped = true;
      clearInterval(timer);
      io.liveBlock(undefined);
      if (finalLine) io.errLine(finalLine);
    },
    pause: (fn) => fn(),
  };
}
