// The progress line's words (io/progress-line.ts) and the rate under it (io/rate.ts): at every
// width the line fits, the most needed parts stay longest, nothing is cut mid-word, and the
// rate is the last seconds' on an injected clock.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { bytesPair, bytesRate, percent, type ProgressState, progressText } from '../../src/io/progress-line.js';
import { RateMeter } from '../../src/io/rate.js';
import { displayWidth } from '../../src/io/width.js';

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
    expect(progressText(upload(), 75)).toBe(
      'Uploading holiday-photos-2024.zip  45.2/120.0 MB  37%  1.3 MB/s  1m00s left',
    );
  });

  it('adds the file count and the overall total for several files', () => {
    const s = upload({ position: '2/3', overall: { done: 60.1 * MiB, total: 150.3 * MiB } });
    expect(progressText(s, 120)).toBe(
      'Uploading 2/3 holiday-photos-2024.zip  45.2/120.0 MB  37%  60.1/150.3 MB in all  1.3 MB/s  1m00s left',
    );
    // 80 columns: the verb and the overall total give way to the name.
    expect(progressText(s, 75)).toBe('2/3 holiday-photos-2024.zip  45.2/120.0 MB  37%  1.3 MB/s  1m00s left');
    // 40 columns: count, bytes, percent and time left; the name has no room left.
    expect(progressText(s, 35)).toBe('2/3  45.2/120.0 MB  37%  1m00s left');
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
    expect(line).toMatch(/^a-very-.*…[a-z-]*\.pdf {2}45\.2\/120\.0 MB {2}37% {2}1\.3 MB\/s {2}1m00s left$/);
    expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });

  it('formats amounts in the total’s unit, 100% only when all is done', () => {
    expect(bytesPair(0, 900)).toBe('0/900 B');
    expect(bytesPair(512, 200 * 1024)).toBe('1/200 KB');
    expect(bytesPair(MiB / 2, 3 * MiB)).toBe('0.5/3.0 MB');
    expect(bytesRate(1.5 * MiB)).toBe('1.5 MB/s');
    expect(bytesRate(300 * 1024)).toBe('300 KB/s');
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
