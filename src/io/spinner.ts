// A spinner on stderr with elapsed time, only when stderr is a terminal and --json is off
// (ora is loaded only then). Everything else gets a no-op spinner.
import type { Clock } from '../clock.js';
import type { IO } from './io.js';

export interface Spinner {
  /** Replaces the text after the elapsed time. */
  update(text: string): void;
  /** Stops and clears the spinner line; optionally leaves a final line on stderr. */
  stop(finalLine?: string): void;
  /** Clears the spinner while fn prints to the terminal, then draws it again. */
  pause<T>(fn: () => T): T;
}

const noop: Spinner = { update() {}, stop() {}, pause: (fn) => fn() };

export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

export async function startSpinner(io: IO, clock: Clock, text: string): Promise<Spinner> {
  if (!io.canAnimate) return noop;
  const { default: ora } = await import('ora');
  const started = clock.now();
  let label = text;
  const render = () => `${label} ${formatElapsed(clock.now() - started)}`;
  const spinner = ora({
    text: render(),
    stream: io.stderr as NodeJS.WriteStream,
    color: io.color ? 'cyan' : false,
    isEnabled: true,
    discardStdin: false,
  });
  spinner.start();
  const timer = setInterval(() => {
    spinner.text = render();
  }, 250);
  timer.unref();
  return {
    update(t) {
      label = t;
      spinner.text = render();
    },
    stop(finalLine) {
      clearInterval(timer);
      spinner.stop();
      if (finalLine) io.errLine(finalLine);
    },
    pause(fn) {
      spinner.clear();
      try {
        return fn();
      } finally {
        spinner.render();
      }
    },
  };
}
