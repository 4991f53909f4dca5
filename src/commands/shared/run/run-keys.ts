// The keys of a followed run (README.md "Chat", docs/guide.md "Keys during a run"), one scheme
// for chat, job watch and site create:
// - Ctrl-C stops following. The run goes on; the command that re-attaches is printed. It is also
//   what SIGINT does without a terminal.
// - Esc asks "Cancel this run?" on the status line; `y` cancels it (cancel_job), any other key
//   keeps it going. The run is then followed to its end, so what is said is what `job watch`
//   shows after: cancelled, or ended before the cancel arrived.
// Text typed meanwhile is kept for the conversation's next message, said once when it starts.
import type { Context } from '../../../context.js';
import type { IO } from '../../../io/io.js';
import { guardKeys } from '../../../io/keyguard.js';
import { flag, sb } from '../../../io/shell.js';
import { style } from '../../../io/style.js';
import { ESC } from '../../../interrupts.js';
import type { DetachReason, RunView } from '../../../render/run-view.js';

/** The scheme in words, as the help and the docs say it. */
export const RUN_KEYS = 'Esc cancels the run (asks first) · Ctrl-C stops following (the run goes on)';

export const CANCEL_QUESTION = 'Cancel this run? y cancels it · any other key keeps it going';

/** The terminals told the scheme already: once per process is enough. */
const told = new WeakSet<IO>();

export interface RunKeys {
  /** Ctrl-C: stop following. */
  readonly stop: boolean;
  /** Esc, then y: cancel the run (once). */
  readonly cancel: boolean;
  release(): void;
}

export interface RunKeysOptions {
  view: RunView;
  /** Ends the wait in progress (a poll, a sleep, the cancel call) to act on a key. */
  wake(): void;
  /** Whether a cancel may still be asked for (none was sent yet). */
  canCancel(): boolean;
  /** A conversation: text typed meanwhile is its next message's, and that is said once. */
  keepTyped?: boolean;
}

export function takeRunKeys(ctx: Context, o: RunKeysOptions): RunKeys {
  const { io } = ctx;
  const c = style(io);
  let stop = false;
  let cancel = false;
  let asking = false;
  // The spinner's label, where there is one, goes back to the run's state after the answer.
  const pretty = io.stdoutIsTTY && !io.json;
  // Lasting lines go after what the view plays back, never into a row it is still writing.
  const note = (text: string) => (o.view.note ? o.view.note(text) : io.errLine(text));
  const releaseInterrupt = ctx.interrupts.handle(() => {
    stop = true;
    o.wake();
  });
  const releaseKeys = ctx.interrupts.handleKeys((key) => {
    if (asking) {
      asking = false;
      if (/^y/i.test(key)) {
        cancel = true;
        o.wake();
      } else {
        if (pretty) o.view.progress?.(undefined);
        note('Not cancelled; the run goes on.');
      }
      return true;
    }
    if (key !== ESC || !o.canCancel()) return false;
    asking = true;
    note(CANCEL_QUESTION);
    if (pretty) o.view.status('Cancel this run? (y/N)');
    return true;
  });
  const guard = guardKeys(io, ctx.interrupts, {
    onTyped: o.keepTyped
      ? () =>
          !io.quiet &&
          note(
            c.dim(
              'What you type now is kept, not sent: it shows at the prompt when the run ends, for you to edit and send with Enter.',
            ),
          )
      : undefined,
    // Live, the block under the text shows it as it is typed.
    onTyping: o.keepTyped ? (text) => o.view.typed?.(text) : undefined,
  });
  if (guard.active && io.stderrIsTTY && !told.has(io)) {
    told.add(io);
    io.info(c.dim(RUN_KEYS));
  }
  return {
    get stop() {
      return stop;
    },
    get cancel() {
      return cancel;
    },
    release() {
      // A question left on the screen is closed in words: the key after it answers nothing now.
      if (asking) note('Not cancelled: the question about the run was left unanswered.');
      asking = false;
      guard.release();
      releaseKeys();
      releaseInterrupt();
    },
  };
}

/**
 * After a run was left going on (Ctrl-C, --timeout, no connection): how it stands, the command
 * that re-attaches, and the one that cancels it, unless a cancel was sent already.
 */
export function sayStopped(
  ctx: Context,
  r: { outcome: string; reason?: DetachReason; cancelSent: boolean },
  projectId: string,
  jobId: string,
): void {
  const lead =
    r.outcome === 'timeout'
      ? 'Stopped following; the run goes on'
      : r.reason === 'connection_lost'
        ? 'Stopped following without a connection; the run may go on'
        : r.cancelSent
          ? 'Stopped following before the cancel was confirmed; the run may still be going on'
          : 'Stopped following; the run goes on';
  ctx.io.info(`${lead}. Re-attach with: ${sb('job watch', projectId, jobId)}`);
  if (!r.cancelSent) ctx.io.info(`Cancel it with: ${sb('job cancel', projectId, flag('--job', jobId))}`);
}
