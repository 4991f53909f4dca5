// What `upload` shows while it sends, and what it knows of the file being sent when it stops.
// On a terminal that redraws: one progress line in the live block (io/progress-line.ts) —
// bytes of the file the service has taken and its size, percent, the rate over the last
// seconds, time left, and for several files their count and the overall total. What is
// measured is the bytes the socket took (api/body-stream.ts); but the operating system's
// buffers take the first megabytes of a body at once and let the next ones in only by
// megabytes as the link drains them, so those counts run ahead of the service. So the rate is
// measured once the buffers are full (RateMeter's settle), and the service's share is
// estimated from it: it grows at that rate and never passes the bytes sent (docs/guide.md
// "Publishing and uploads"). Elsewhere exactly what upload always showed: a label a file
// where the terminal only appends (TERM=dumb, stdout a pipe), nothing when stderr is no
// terminal or under --quiet or --json (io.canAnimate).
import type { Context } from '../../context.js';
import { type ProgressState, progressText } from '../../io/progress-line.js';
import type { Clock } from '../../clock.js';
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

/** Wall ms a body's first bytes are left out of its rate: the socket's buffers filling. */
export const SETTLE_MS = 1_000;

/**
 * The most a socket's buffers hold between the two ends: Linux and macOS let a send buffer grow
 * to 4 MiB. Bytes sent this far ahead of the estimate were taken by the far end.
 */
const IN_FLIGHT_MAX = 4 * 1024 * 1024;

/**
 * Of the bytes of one body handed to the socket so far, those the far end has taken, estimated
 * from the rate the sent bytes grow at once the buffers are full (the first SETTLE_MS left
 * out). The estimate grows at that rate between two reads (the socket lets bytes in by
 * megabytes), from when the rate is first known; it is never more than the bytes sent, nor
 * IN_FLIGHT_MAX less. Once every byte was handed over, the sent bytes grow no more: the rate
 * measured until then stays, while the buffers drain.
 */
export class TakenEstimate {
  private meter: RateMeter;
  private taken = 0;
  private at: number | undefined;
  private rate: number | undefined;
  /** Every byte was handed over: the rate measured until then stays. */
  private whole = false;

  constructor(private readonly clock: Clock) {
    this.meter = new RateMeter(clock, 10_000, 1_000, SETTLE_MS);
  }

  /** Wall ms, as the meter counts them (rate.ts). */
  private now(): number {
    return this.clock.now() / (this.clock.speed ?? 1);
  }

  /** A body starts (a file, or a retry of it from its start). */
  reset(): void {
    this.meter = new RateMeter(this.clock, 10_000, 1_000, SETTLE_MS);
    this.taken = 0;
    this.at = undefined;
    this.rate = undefined;
    this.whole = false;
  }

  /** `sent` bytes of `total` handed over so far: the share taken, and the rate (undefined while unknown). */
  read(sent: number, total: number): { taken: number; rate: number | undefined } {
    const now = this.now();
    if (!this.whole) {
      this.meter.add(sent);
      // A first rate of 0 is the socket between two of its steps, not a stalled link.
      const rate = this.meter.rate();
      if (rate !== undefined && (rate > 0 || this.rate !== undefined)) this.rate = rate;
      this.whole = sent >= total;
    }
    if (this.rate !== undefined) {
      if (this.at !== undefined) this.taken += (this.rate * Math.max(0, now - this.at)) / 1000;
      this.at = now;
    }
    this.taken = Math.min(sent, Math.max(this.taken, sent - IN_FLIGHT_MAX));
    return { taken: this.taken, rate: this.rate };
  }
}

export async function startUploadProgress(ctx: Context, plan: UploadPlanItem[]): Promise<UploadProgress> {
  const spinner = await startSpinner(ctx.io, ctx.clock, 'Uploading');
  const estimate = new TakenEstimate(ctx.clock);
  const grand = plan.reduce((n, p) => n + p.size, 0);
  let current = 0;
  let before = 0;
  let fraction = 0;
  let state: SentState = 'none';

  const render = (width: number): string => {
    const item = plan[current];
    const { taken, rate } = estimate.read(item.size * fraction, item.size);
    const done = Math.round(taken);
    const s: ProgressState = {
      verb: 'Uploading',
      name: sanitizeInline(item.name),
      done,
      total: item.size,
      unit: 'bytes',
      rate,
      // All of it taken: what is left is the service's (storing it, answering).
      note: fraction === 1 && done >= item.size ? 'waiting for the service' : undefined,
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
      estimate.reset();
      state = 'none';
      // The label a terminal that only appends gets, as it always did; a live line draws render.
      spinner.update(`Uploading ${i + 1}/${plan.length} ${plan[i].name}`);
    },
    sent(bytes, total) {
      // A retry sends the body again from its start: so is the estimate.
      if (bytes === 0 || (total > 0 && bytes / total < fraction)) estimate.reset();
      fraction = total > 0 ? bytes / total : 1;
      if (fraction === 1) state = 'whole';
      else if (state === 'none' && bytes > 0) state = 'part';
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
