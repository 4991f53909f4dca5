// The emulated clock. Every duration of the emulator (runs, the budget minute, hourly quotas,
// publish and restore progress) is measured on it, so `--speed 10` makes all of them ten
// times faster and tests never wait on wall time: they either share a fake time source with
// the client (FakeClock from src/clock.ts satisfies TimeSource) or jump with advance().

/** Anything with now() in ms: Date, src/clock.ts's systemClock or FakeClock. */
export interface TimeSource {
  now(): number;
}

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

export class EmulatorClock {
  private anchorSource: number;
  private anchorEmulated: number;
  private speedValue: number;
  private timers: Timer[] = [];
  private seq = 0;
  private wallTimer?: NodeJS.Timeout;
  /** True when the source is the real wall clock, so timers can be armed with setTimeout. */
  private readonly realTime: boolean;

  constructor(
    private readonly source: TimeSource = Date,
    speed = 1,
    startAt?: number,
  ) {
    if (!(speed > 0)) throw new RangeError('The clock speed must be a number above 0.');
    this.realTime = source === Date;
    this.speedValue = speed;
    this.anchorSource = source.now();
    this.anchorEmulated = startAt ?? this.anchorSource;
  }

  /** Emulated time in ms since the epoch. */
  now(): number {
    return this.anchorEmulated + (this.source.now() - this.anchorSource) * this.speedValue;
  }

  get speed(): number {
    return this.speedValue;
  }

  /** Emulated time runs `speed` times faster than the source from now on. */
  setSpeed(speed: number): void {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError('The clock speed must be a number above 0.');
    this.anchorEmulated = this.now();
    this.anchorSource = this.source.now();
    this.speedValue = speed;
    this.runDue();
  }

  /** Jumps emulated time forward (tests, `POST /_emulator/clock {"advanceMs"}`); due timers fire. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('The clock only moves forward.');
    // Checked before it moves: past the latest time a Date holds, every answer would fail.
    if (!(this.now() + ms <= 8.64e15)) throw new RangeError('The clock cannot move past the year 275760.');
    this.anchorEmulated += ms;
    this.runDue();
  }

  /** Emulated ms as source (wall) ms: what a client has to wait for that much emulated time. */
  toSourceMs(emulatedMs: number): number {
    return emulatedMs / this.speedValue;
  }

  /**
   * Calls fn once emulated time reaches `at`. Returns a cancel function. Timers are also
   * checked on every request (runDue), so they fire with a fake time source too; with the real
   * clock an unref'd setTimeout fires them on time. Prefer deriving state from elapsed time
   * (a job's events from its start time) over timers: derived state survives save and load.
   */
  schedule(at: number, fn: () => void): () => void {
    const timer: Timer = { at, seq: this.seq++, fn };
    this.timers.push(timer);
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.arm();
    return () => {
      const i = this.timers.indexOf(timer);
      if (i >= 0) this.timers.splice(i, 1);
      this.arm();
    };
  }

  /** Fires every timer that is due. The server calls this on each request. */
  runDue(): void {
    const now = this.now();
    while (this.timers.length > 0 && this.timers[0].at <= now) {
      const t = this.timers.shift()!;
      t.fn();
    }
    this.arm();
  }

  /** Stops the wall timer (on close); pending timers stay and fire on the next runDue. */
  stop(): void {
    if (this.wallTimer) clearTimeout(this.wallTimer);
    this.wallTimer = undefined;
  }

  private arm(): void {
    if (!this.realTime) return;
    this.stop();
    if (this.timers.length === 0) return;
    const wait = Math.max(0, Math.ceil(this.toSourceMs(this.timers[0].at - this.now())));
    this.wallTimer = setTimeout(() => this.runDue(), Math.min(wait, 2 ** 31 - 1));
    this.wallTimer.unref();
  }
}
