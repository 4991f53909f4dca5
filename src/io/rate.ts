// The rate of a transfer over its last seconds, from samples of the amount done (bytes the
// socket took, files a restore wrote). Wall seconds: an emulated clock run faster
// (SITEBUILDER_CLOCK_SPEED) is brought back to them, so the rate is the network's.
import type { Clock } from '../clock.js';

export class RateMeter {
  private samples: Array<{ at: number; done: number }> = [];
  /** When the first sample of this measure came (settleMs counts from it). */
  private firstAt: number | undefined;

  /**
   * windowMs: how far back the rate looks; minSpanMs: the shortest span it is told over (a
   * rate over a few milliseconds says nothing); settleMs: samples this soon after the first
   * are left out (a socket's buffers take the first megabytes of a body at once, far faster
   * than any link: counted, they would make the rate the buffers' speed).
   */
  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 5_000,
    private readonly minSpanMs = 1_000,
    private readonly settleMs = 0,
  ) {}

  private now(): number {
    return this.clock.now() / (this.clock.speed ?? 1);
  }

  /** The amount done now. Less than before (a retry starting over) starts the measure again. */
  add(done: number): void {
    const at = this.now();
    const last = this.samples.at(-1);
    if (last && done < last.done) {
      this.samples = [];
      this.firstAt = undefined;
    }
    this.firstAt ??= at;
    if (at - this.firstAt < this.settleMs) return;
    // A sample every tenth of a second is plenty (a fast upload completes many writes a second).
    const prev = this.samples.at(-2);
    if (prev && at - prev.at < 100) this.samples[this.samples.length - 1] = { at, done };
    else this.samples.push({ at, done });
    // Kept: the last sample at or before the window's start (so the window is spanned), and after.
    while (this.samples.length > 2 && this.samples[1].at <= at - this.windowMs) this.samples.shift();
  }

  /** Units a second over the window until now; undefined until minSpanMs is spanned. */
  rate(): number | undefined {
    const now = this.now();
    const last = this.samples.at(-1);
    if (!last) return undefined;
    let base = this.samples[0];
    for (const s of this.samples) if (s.at <= now - this.windowMs) base = s;
    const span = now - base.at;
    if (span < this.minSpanMs) return undefined;
    return Math.max(0, last.done - base.done) / (span / 1000);
  }
}
