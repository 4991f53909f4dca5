// An upload in a real terminal (tmux, the built binary) against an emulator whose bandwidth
// fault slows the body: at 80 and 40 columns the progress line moves (its percent grows), shows
// what fits (rate and time left at 80, time left at 40), never reaches the edge, and gives way
// to the address; Ctrl-C mid-transfer clears it, says the file was not stored, exits 130, and
// the emulator indeed stored nothing. The sessions run side by side.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { listStorageFiles } from '../../src/emulator/domains/storage-files/files.js';
import { displayWidth } from '../../src/io/width.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const SITE = 'site_portfolio';
const MiB = 1024 * 1024;
let emu: RunningEmulator;
const sessions: TmuxSession[] = [];
const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-upload-tty-'));

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, bytes: number): string {
  const path = join(dir, name);
  const block = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  writeFileSync(path, block);
  return path;
}

function upload(cols: number, files: string[]): TmuxSession {
  const s = new TmuxSession(
    [process.execPath, BIN, 'upload', SITE, ...files],
    {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-tty-')), 'config'),
    },
    { cols, rows: 12 },
  );
  sessions.push(s);
  return s;
}

const PROGRESS = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] .*\d+%/;
// The rate in the unit its size calls for, and the time left as the spinner writes elapsed
// times (io/spinner.ts formatElapsed): a loaded machine measures a slower link, and says so.
const RATE = /\d+(\.\d)? (B|KiB|MiB)\/s/;
const LEFT = /(\d+m)?\d+s left/;
const percentOf = (line: string) => Number(/ (\d+)% /.exec(`${line} `)?.[1]);

/** Reads the screen until the upload ends; every progress line seen, in order. */
async function watch(t: TmuxSession, cols: number, ended: RegExp): Promise<{ lines: string[]; end: string }> {
  const lines: string[] = [];
  const end = await t.waitFor((screen) => {
    for (const l of screen.split('\n')) {
      if (!PROGRESS.test(l)) continue;
      if (lines.at(-1) !== l) lines.push(l);
      // Joined by capture-pane when wrapped: a line past the edge would show here.
      expect(displayWidth(l), l).toBeLessThan(cols);
    }
    return ended.test(screen);
  }, 60_000);
  return { lines, end };
}

describe.skipIf(!hasTmux)('upload progress in a terminal', () => {
  it('moves, fits 80 and 40 columns, and gives way to the address', async () => {
    const small = file('small.txt', 2_000);
    const big = file('photos.zip', 16 * MiB);
    // Each session's big body crawls at 3 MB/s: 22 MB of base64, about 7 s. Far more than the
    // sockets' buffers hold between the two ends (here up to 6 MB): a body they take whole
    // before its rate is measured shows no rate, rightly (commands/upload/progress.ts).
    emu.control.addFault({ method: 'upload_storage_file', bytesPerSecond: 3_000_000, times: 4 });
    const runs = [80, 40].map((cols) => ({ cols, t: upload(cols, [small, big]) }));
    const seen = await Promise.all(runs.map(({ cols, t }) => watch(t, cols, /EXIT=\d+/)));
    for (const [i, { cols }] of runs.entries()) {
      const { lines, end } = seen[i];
      expect(end, `${cols}`).toMatch(/EXIT=0/);
      // The two addresses, one a line, and no progress line left behind.
      expect(end).toContain(
        `${emu.baseUrl}/storage/${SITE}/small.txt\n${emu.baseUrl}/storage/${SITE}/photos.zip\nEXIT=0`,
      );
      expect(end.split('\n').filter((l) => PROGRESS.test(l))).toEqual([]);
      // It moved: the percent of photos.zip grew through several values below 100.
      const percents = lines.filter((l) => /photos|2\/2/.test(l)).map(percentOf);
      const moving = [...new Set(percents.filter((p) => p > 0 && p < 100))];
      expect(moving.length, `${cols}: ${lines.join('\n')}`).toBeGreaterThanOrEqual(3);
      expect(moving).toEqual([...moving].sort((a, b) => a - b));
      if (cols === 80) {
        // Everything: count, name, bytes, percent, rate and time left.
        const all = new RegExp(`2/2 photos\\.zip {2}\\d+\\.\\d/16\\.0 MiB {2}\\d+% .*${RATE.source} {2}${LEFT.source}`);
        expect(
          lines.some((l) => all.test(l)),
          lines.join('\n'),
        ).toBe(true);
      } else {
        // What matters most: count, bytes, percent, time left.
        const most = new RegExp(`2/2 .*\\d+\\.\\d/16\\.0 MiB {2}\\d+% {2}${LEFT.source}`);
        expect(
          lines.some((l) => most.test(l)),
          lines.join('\n'),
        ).toBe(true);
      }
    }
  });

  it('Ctrl-C mid-transfer: the line is cleared, the file said not stored, and not stored', {
    timeout: 60_000,
  }, async () => {
    emu.control.reset();
    const big = file('interrupted.bin', 16 * MiB);
    emu.control.addFault({ method: 'upload_storage_file', bytesPerSecond: 2_000_000 });
    const t = upload(80, [big]);
    await t.waitFor(
      (s) => s.split('\n').some((l) => PROGRESS.test(l) && percentOf(l) >= 20 && percentOf(l) < 90),
      30_000,
    );
    await t.send('C-c');
    const screen = await t.waitFor(/EXIT=\d+/);
    expect(screen).toMatch(/EXIT=130/);
    expect(screen).toMatch(
      /^(\^C)?Interrupted:\s+\S*interrupted\.bin\s+was\s+not\s+stored\s+\(\d+%\s+of\s+it\s+had\s+been\s+sent\)\.\s+Nothing\s+was\s+uploaded\.\nEXIT=130/m,
    );
    expect(screen.split('\n').filter((l) => PROGRESS.test(l))).toEqual([]);
    // The emulator reads what the sockets held, finds the body cut off, and stores nothing.
    await waitFor(() => emu.control.log({ method: 'upload_storage_file' }).length === 1, {
      what: 'the cut-off upload in the request log',
      deadlineMs: 20_000,
    });
    expect(emu.control.log({ method: 'upload_storage_file' })[0].status).toBe(400);
    expect(listStorageFiles(emu.emulator, SITE).map((f) => f.path)).not.toContain('interrupted.bin');
  });
});
