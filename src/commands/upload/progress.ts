// What `upload` shows while it sends, and what it knows of the file being sent when it stops.
// On a terminal that redraws: one progress line in the live block (io/progress-line.ts) —
// bytes of the file sent and its size, percent, the rate over the last seconds, time left, and
// for several files their count and the overall total — counted from the bytes the socket
// took (api/body-stream.ts), not from when the body was made. Elsewhere exactly what upload
// always showed: a label a file where the terminal only appends (TERM=dumb, stdout a pipe),
// nothing when stderr is no terminal or under --quiet or --json (io.canAnimate).
import type { Context } from '../../context.js';
import { type ProgressState, progressText } from '../../io/progress-line.js';
import { RateMeter } from '../../io/rate.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { startSpinner } from '../../io/spinner.js';
import type { UploadPlanItem } from './files.js';

/** How much of the file at hand went out: none, part of it, or all of it (it may be stored). */
export type SentState = 'none' | 'part' | 'whole';

export interface UploadProgress {
  /** File i of the plan starts. */
  start(i: number): void;
  /** Bytes of its body the socket took in this attempt, of total (api/body-stream.ts SentListener). */
  sent(bytes: number, total: number): void;
  /** How much of the current file went out, in any attempt. */
  readonly state: SentState;
  /** Its body's share sent in the current attempt, 0 to 1. */
  readonly fraction: number;
  pause<T>(fn: () => T): T;
  stop(): void;
}

export async function startUploadProgress(ctx: Context, plan: UploadPlanItem[]): Promise<UploadProgress> {
  const spinner = await startSpinner(ctx.io, ctx.clock, 'Uploading');
  const meter = new RateMeter(ctx.clock);
  const grand = plan.reduce((n, p) => n + p.size, 0);
  let current = 0;
  let before = 0;
  let fraction = 0;
  let state: SentState = 'none';

  const render = (width: number): string => {
    const item = plan[current];
    const done = Math.round(item.size * fraction);
    const s: ProgressState = {
      verb: 'Uploading',
      name: sanitizeInline(item.name),
      done,
      total: item.size,
      unit: 'bytes',
      rate: meter.rate(),
      // All of it went out: what is left is the service's (storing it, answering).
      note: fraction === 1 ? 'waiting for the service' : undefined,
    };
    if (plan.length > 1) {
      s.position = `${current + 1}/${plan.length}`;
      s.overall = { done: before + done, total: grand };
    }
    return progressText(s, width);
  };
  if (spinner.live) spinner.line(render);

  return {
    start(i) {
      current = i;
      before = plan.slice(0, i).reduce((n, p) => n + p.size, 0);
      fraction = 0;
      state = 'none';
      // The label a terminal that only appends gets, as it always did; a live line draws render.
      spinner.update(`Uploading ${i + 1}/${plan.length} ${plan[i].name}`);
    },
    sent(bytes, total) {
      fraction = total > 0 ? bytes / total : 1;
      if (fraction === 1) state = 'whole';
      else if (state === 'none' && bytes > 0) state = 'part';
      meter.add(before + Math.round(plan[current].size * fraction));
    },
    get state() {
      return state;
    },
    get fraction() {
      return fraction;
    },
    pause: (fn) => spinner.pause(fn),
    stop: () => spinner.stop(),
  };
}
