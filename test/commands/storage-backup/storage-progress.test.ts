// The counts of a storage restore and of a backup being archived: read by one reader
// (service/storage-progress.ts) from the one shape our emulator sends, shown on the spinner's
// line on a terminal (fitted, growing), and where the status carries none — the alternate
// shapes, or anything the reader does not know — the spinner with its elapsed time, nothing
// guessed. Against a real emulator on port 0 sharing the CLI's fake clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { displayWidth } from '../../../src/io/width.js';
import { readStorageProgress } from '../../../src/service/storage-progress.js';
import { run } from '../../helpers/run.js';
import { SHAPES } from '../../helpers/shapes.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;
let weekly: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(async () => {
  emu.control.reset();
  const res = await fetch(`${emu.baseUrl}/_emulator/sites/${SITE}/storage-backups`);
  weekly = ((await res.json()) as any).data.find((b: any) => b.label === 'Weekly backup').backupId;
});
afterAll(() => emu.close());

const cli = (argv: string[], opts: Parameters<typeof run>[1] = {}) => run(argv, { env, clock, ...opts });
/** The spinner's lines drawn on the terminal's status row, in order. */
const drawn = (stderr: string) =>
  stderr
    .replace(/\u001b\[\d+m/g, '')
    .split(/\r\u001b\[2K|\u001b\[1A|\n/)
    .filter((l) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(l));
const percents = (lines: string[]) =>
  lines
    .map((l) => / (\d+)%/.exec(l)?.[1])
    .filter(Boolean)
    .map(Number);
/** The default shapes carry counts; the alternate ones none (docs/emulator.md). */
const counted = () => emu.shapes === 'default';

// The reader alone, on the test's own records: the same in either project, so run in the default one.
describe.skipIf(SHAPES === 'alternate')('the reader of storage progress', () => {
  it('reads our emulator’s counts, and nothing else', () => {
    const p = { filesDone: 2, filesTotal: 8, bytesDone: 1024, bytesTotal: 4096 };
    expect(readStorageProgress({ progress: p })).toEqual({
      files: { done: 2, total: 8 },
      bytes: { done: 1024, total: 4096 },
    });
    expect(readStorageProgress({ progress: { filesDone: 0, filesTotal: 3 } })).toEqual({
      files: { done: 0, total: 3 },
    });
    // Bytes make no sense here: the files alone.
    expect(readStorageProgress({ progress: { ...p, bytesDone: 5000 } })).toEqual({ files: { done: 2, total: 8 } });
    for (const row of [
      undefined,
      null,
      'running',
      {},
      { progress: null },
      { progress: [2, 8] },
      { progress: 0.25 },
      { progress: '25%' },
      { progress: { done: 2, total: 8 } }, // another service's shape: not guessed at
      { progress: { filesDone: '2', filesTotal: '8' } },
      { progress: { filesDone: 9, filesTotal: 8 } },
      { progress: { filesDone: -1, filesTotal: 8 } },
      { progress: { filesDone: 1.5, filesTotal: 8 } },
      { progress: { filesDone: 0, filesTotal: 0 } },
      { progress: { bytesDone: Number.NaN, bytesTotal: 10 } },
      { percent: 25, filesDone: 2, filesTotal: 8 },
    ])
      expect(readStorageProgress(row), JSON.stringify(row)).toBeUndefined();
  });
});

describe('counts on a terminal', () => {
  it('a storage restore followed to completed shows its bytes, files and percent, growing, fitted', async () => {
    const res = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full', '--yes', '--wait'], {
      tty: true,
      columns: 60,
    });
    expect(res.code).toBe(0);
    const lines = drawn(res.stderr);
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(57);
    const seen = percents(lines);
    if (counted()) {
      expect(lines.some((l) => /\d+(\.\d)?\/\d+(\.\d)? KiB {2}\d+\/\d+ files {2}\d+%/.test(l))).toBe(true);
      expect(new Set(seen).size).toBeGreaterThan(1);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    } else {
      // No counts in the status: the spinner with the status and the elapsed time, no percent.
      expect(seen).toEqual([]);
      expect(lines.some((l) => /Restoring storage \(/.test(l))).toBe(true);
    }
  });

  it('a storage backup followed while archived shows its counts the same way', async () => {
    const res = await cli(['storage-backup', 'create', SITE, '--wait'], { tty: true, columns: 80 });
    expect(res.code).toBe(0);
    const lines = drawn(res.stderr);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(77);
    if (counted()) expect(lines.some((l) => /\d+(\.\d)?\/\d+(\.\d)? KiB {2}\d+\/7 files {2}\d+%/.test(l))).toBe(true);
    else expect(percents(lines)).toEqual([]);
  });

  it('piped and --json: nothing on stderr, as before', async () => {
    const piped = await cli(['storage-backup', 'create', SITE, '--wait']);
    expect(piped.stderr).toBe('');
    const json = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full', '--yes', '--wait', '--json'], {
      io: { stderrTTY: true },
    });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    // The row as the service sends it: the counts are kept raw in --json.
    const row = JSON.parse(json.stdout).restore;
    if (counted()) expect(row.progress).toMatchObject({ filesDone: row.progress.filesTotal });
    else expect(row.progress).toBeUndefined();
  });
});
