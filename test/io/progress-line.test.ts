// The progress line's words (io/progress-line.ts) and the rate under it (io/rate.ts): at every
// width the line fits, the most needed parts stay longest, nothing is cut mid-word, and the
// rate is the last seconds' on an injected clock.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { bytesPair, bytesRate, percent, type ProgressState, progressText } from '../../src/io/progress-line.js';
import { RateMeter } from '../../src/io/rate.js';
import { displayWidth } from '../../src/io/width.js';
import { ofFiles } from '../../src/commands/upload/interrupted.js';
import { formatSize } from '../../src/io/bytes.js';
import { formatBytes } from '../../src/commands/shared/format.js';
import { TakenEstimate } from '../../src/commands/upload/progress.js';

const MiB = 1024 * 1024;

const upload = (over: Partial<ProgressState> = {}): ProgressState => ({
  verb: 'Uploading',
  name: 'holiday-photos-2024.zip',
  done: 45.2 * MiB,
  total: 120 * MiB,
  unit: 'bytes',
  rate: 1.25 * MiB,
  ...over,
});

describe('progress line', () => {
  it('says bytes, percent, rate and time left for one file at 80 columns', () => {
    expect(progressText(upload(), 77)).toBe(
      'Uploading holiday-photos-2024.zip  45.2/120.0 MiB  37%  1.3 MiB/s  1m00s left',
    );
    // 75 columns (80 less the room kept for ^C): the name is shortened in its middle.
    expect(progressText(upload(), 75)).toBe(
      'Uploading holiday-ph…s-2024.zip  45.2/120.0 MiB  37%  1.3 MiB/s  1m00s left',
    );
  });

  it('adds the file count and the overall total for several files', () => {
    const s = upload({ position: '2/3', overall: { done: 60.1 * MiB, total: 150.3 * MiB } });
    expect(progressText(s, 120)).toBe(
      'Uploading 2/3 holiday-photos-2024.zip  45.2/120.0 MiB  37%  60.1/150.3 MiB in all  1.3 MiB/s  1m00s left',
    );
    // 80 columns: the verb and the overall total give way to the name.
    expect(progressText(s, 75)).toBe('2/3 holiday-photos-2024.zip  45.2/120.0 MiB  37%  1.3 MiB/s  1m00s left');
    // 40 columns: bytes, percent and time left; the count and the name have no room left.
    expect(progressText(s, 35)).toBe('45.2/120.0 MiB  37%  1m00s left');
    expect(progressText(s, 36)).toBe('2/3  45.2/120.0 MiB  37%  1m00s left');
  });

  it('fits every width, keeps the percent longest, and never ends on a cut word', () => {
    const states = [
      upload(),
      upload({ position: '12/340', overall: { done: 3 * MiB, total: 900 * MiB } }),
      upload({ rate: undefined }),
      upload({ note: 'waiting for the service', done: 120 * MiB }),
      upload({ name: '写真アルバム-2024年夏休み-最終版.zip' }),
      upload({ done: 10, total: 900, rate: 3 }),
      { verb: 'Restoring storage srs_1', done: 3, total: 7, unit: 'files' as const, rate: 0.5 },
      { verb: 'Archiving', done: 2 * MiB, total: 5 * MiB, unit: 'bytes' as const, also: '3/7 files' },
    ];
    for (const s of states) {
      const full = progressText(s, 500);
      const words = new Set(full.split(/\s+/));
      for (let width = 4; width <= 120; width++) {
        const line = progressText(s, width);
        expect(displayWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
        // Every word shown is a whole word of the full line, or the name shortened with …
        for (const w of line.split(/\s+/).filter(Boolean))
          expect(words.has(w) || w.includes('…'), `${width}: "${w}" in "${line}"`).toBe(true);
        if (width >= 12) expect(line).toContain(percent(s.done, s.total));
      }
    }
  });

  it('shortens a long name in its middle, keeping its extension', () => {
    const line = progressText(upload({ name: 'a-very-long-file-name-for-the-quarterly-report.pdf' }), 60);
    // The verb gives way first; the name takes the room left, cut in its middle.
    expect(line).toMatch(/^a-very-.*…[a-z-]*\.pdf {2}45\.2\/120\.0 MiB {2}37% {2}1\.3 MiB\/s {2}1m00s left$/);
    expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('formats amounts in the total’s unit, 100% only when all is done', () => {
    expect(bytesPair(0, 900)).toBe('0/900 B');
    expect(bytesPair(512, 200 * 1024)).toBe('1/200 KiB');
    expect(bytesPair(MiB / 2, 3 * MiB)).toBe('0.5/3.0 MiB');
    expect(bytesRate(1.5 * MiB)).toBe('1.5 MiB/s');
    expect(bytesRate(300 * 1024)).toBe('300 KiB/s');
    expect(percent(999, 1000)).toBe('99%');
    expect(percent(1000, 1000)).toBe('100%');
    expect(percent(0, 0)).toBe('100%');
  });
});

describe('rate meter', () => {
  it('measures the last seconds only, and starts again when the amount goes back (a retry)', () => {
    const clock = new FakeClock();
    const meter = new RateMeter(clock, 5_000, 1_000);
    meter.add(0);
    clock.advance(500);
    meter.add(500);
    expect(meter.rate()).toBeUndefined(); // half a second says nothing yet
    for (let s = 1; s <= 20; s++) {
      clock.advance(500);
      meter.add(s <= 4 ? 1_000 * s : 4_000 + 100 * (s - 4)); // 2,000 a second, then 200
    }
    // The window holds the slow part only: about 200 a second.
    expect(meter.rate()).toBeGreaterThan(150);
    expect(meter.rate()).toBeLessThan(450);
    // Nothing moves for the whole window: 0, not the old average.
    clock.advance(6_000);
    expect(meter.rate()).toBe(0);
    meter.add(10); // a retry starts over
    expect(meter.rate()).toBeUndefined();
  });

  it('counts wall seconds when the clock runs faster (SITEBUILDER_CLOCK_SPEED)', () => {
    const clock = Object.assign(new FakeClock(), { speed: 10 });
    const meter = new RateMeter(clock);
    meter.add(0);
    clock.advance(20_000); // 2 wall seconds
    meter.add(4_000);
    expect(meter.rate()).toBe(2_000);
  });
});

describe('what an upload says it stored', () => {
  it('agrees the verb with the count', () => {
    expect(ofFiles(1, 3)).toBe('1 of 3 files was');
    expect(ofFiles(2, 3)).toBe('2 of 3 files were');
    expect(ofFiles(1, 1)).toBe('1 of 1 file was');
  });
});

describe('sizes', () => {
  it('read in one convention everywhere: binary units, labelled KiB, MiB, GiB', () => {
    expect(formatSize(8_000_000)).toBe('7.6 MiB');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(3000)).toBe('2.9 KiB');
    expect(formatSize(15 * 1024)).toBe('15 KiB');
    expect(formatSize(100 * 1024 * 1024)).toBe('100 MiB');
    expect(formatBytes(8_000_000)).toBe(formatSize(8_000_000));
    expect(bytesPair(4_900_000, 8_000_000)).toBe('4.7/7.6 MiB');
    expect(bytesRate(524_288)).toBe('512 KiB/s');
  });
});

describe('an upload’s share the service took', () => {
  // Measured on loopback (8,000,000 bytes, base64: 10.67 MB of body, the emulator reading
  // 524,288 bytes a second): the socket took 3.67 MB at once (its buffers), then the rest by
  // steps of about 1.5 MB as the reader drained them; the reader had all of it at 20.3 s.
  const steps: Array<[number, number]> = [
    [0.05, 3.67e6],
    [2.5, 5.24e6],
    [4.5, 6.82e6],
    [7.5, 8.13e6],
    [10.5, 9.44e6],
    [12.9, 10.67e6],
  ];
  const sentAt = (t: number) => steps.filter(([at]) => at <= t).at(-1)?.[1] ?? 0;
  const readAt = (t: number) => Math.min(10.67e6, 524_288 * t);

  it('follows what the far end read, not what the buffers took, and never passes what was sent', () => {
    const clock = new FakeClock(0);
    const estimate = new TakenEstimate(clock);
    const errors: number[] = [];
    // Read as the live line reads it, every 120 ms.
    for (let ms = 0; ms <= 20_300; ms += 120) {
      clock.advance(ms - clock.now());
      const sent = sentAt(ms / 1000);
      const { taken, rate } = estimate.read(sent, 10.67e6);
      expect(taken).toBeLessThanOrEqual(sent);
      if (ms >= 3_000) errors.push(Math.abs(taken - readAt(ms / 1000)));
      // The rate is the reader's, give or take the steps (the buffers' 3.67 MB are not in it).
      if (ms >= 5_000) expect(rate! / 524_288).toBeGreaterThan(0.6);
      if (ms >= 5_000) expect(rate! / 524_288).toBeLessThan(1.6);
    }
    // Bytes sent ran 3 to 4 MB ahead of the reader; the estimate stays within about one step.
    expect(Math.max(...errors)).toBeLessThan(1.6e6);
    expect(Math.abs(sentAt(5) - readAt(5))).toBeGreaterThan(3e6);
  });

  it('is the bytes sent when the link is faster than the buffers', () => {
    const clock = new FakeClock(0);
    const estimate = new TakenEstimate(clock);
    let shown = 0;
    for (let ms = 0; ms <= 6_000; ms += 120) {
      clock.advance(ms - clock.now());
      shown = estimate.read(Math.min(100e6, 20e6 * (ms / 1000)), 100e6).taken;
    }
    expect(shown).toBe(100e6);
  });
});
