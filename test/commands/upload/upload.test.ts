// upload's transfer, in-process against a real emulator on port 0: the file streamed from an
// opened descriptor (bytes exact, a FIFO or a changed file refused, never waited on), outputs
// that stay exactly as they were where no progress is drawn (piped, --json, --quiet, a terminal
// that only appends), the progress line where it is, and Ctrl-C mid-transfer reporting nothing
// stored that was not. The emulator's bandwidth fault slows the body where a test needs time.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { Base64File } from '../../../src/commands/upload/file-source.js';
import { planUploads } from '../../../src/commands/upload/files.js';
import { listStorageFiles } from '../../../src/emulator/domains/storage-files/files.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { CliError, InterruptedError, UsageError } from '../../../src/errors.js';
import { displayWidth } from '../../../src/io/width.js';
import { main } from '../../../src/cli.js';
import { createTestIO } from '../../../src/io/io.js';
import { run, tempConfigDir } from '../../helpers/run.js';
import { SHAPES } from '../../helpers/shapes.js';
import { ScriptedPrompter } from '../../helpers/scripted-prompter.js';

const SITE = 'site_portfolio';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-upload-'));

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(() => emu.control.reset());
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], opts: Parameters<typeof run>[1] = {}) => run(argv, { env, clock, ...opts });
const slowBody = (bytesPerSecond: number) =>
  emu.control.addFault({ method: 'upload_storage_file', bytesPerSecond, times: 5 });
const stored = (site = SITE) => listStorageFiles(emu.emulator, site).map((f) => f.path);
/** A file of n bytes that are not all alike (so base64 of a wrong range would show). */
function file(name: string, n: number): string {
  const path = join(dir, name);
  const bytes = Buffer.alloc(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff;
  writeFileSync(path, bytes);
  return path;
}
const mkfifo = (path: string) => {
  rmSync(path, { force: true });
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
};
const collect = async (f: Base64File) => {
  const parts: Buffer[] = [];
  for await (const p of f.chunks()) parts.push(p);
  return Buffer.concat(parts).toString('latin1');
};

// The file read and encoded, no service involved: the same in either project, so run in the
// default one only.
describe.skipIf(SHAPES === 'alternate')('the file as it is sent', () => {
  it('is its base64, exactly, at every size around a piece and again for a retry', async () => {
    const piece = 3 * 64 * 1024;
    for (const n of [0, 1, 2, 3, 4, piece - 1, piece, piece + 1, 3 * piece + 2]) {
      const path = file(`sized-${n}.bin`, n);
      const [item] = planUploads([path], undefined);
      const f = await Base64File.open(item);
      const expected = readFileSync(path).toString('base64');
      expect(f.byteLength, String(n)).toBe(expected.length);
      expect(await collect(f), String(n)).toBe(expected);
      expect(await collect(f), `${n} again`).toBe(expected);
      await f.close();
    }
  });

  it('refuses, without waiting, a file that became a FIFO after it was checked', async () => {
    const path = file('turns-fifo.bin', 1000);
    const [item] = planUploads([path], undefined);
    mkfifo(path); // no writer: a blocking open would wait forever
    const err = await Base64File.open(item).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(
      `${path} is now a FIFO, not the regular file that was checked; it was not sent.`,
    );
    // Checked as a FIFO from the start: the plan refuses it, without waiting either.
    expect(() => planUploads([path], undefined)).toThrow(/is not a regular file\. Nothing was uploaded\./);
  });

  it('refuses a file whose size changed since the check, and stops one that changes while sent', async () => {
    const path = file('changing.bin', 1_000_000);
    const [item] = planUploads([path], undefined);
    appendFileSync(path, 'more');
    await expect(Base64File.open(item)).rejects.toThrow(
      /changed after it was checked \(1000000 bytes then, 1000004 now\); it was not sent/,
    );
    truncateSync(path, 1_000_000);
    for (const [how, change] of [
      ['shrank', () => truncateSync(path, 500_000)],
      ['grew', () => appendFileSync(path, 'x')],
    ] as const) {
      truncateSync(path, 1_000_000);
      const f = await Base64File.open(item);
      const pieces: number[] = [];
      const err = await (async () => {
        for await (const p of f.chunks()) {
          pieces.push(p.length);
          if (pieces.length === 1) change();
        }
      })().catch((e: unknown) => e);
      await f.close();
      expect(err, how).toBeInstanceOf(CliError);
      expect((err as Error).message).toMatch(new RegExp(`${how} while it was being sent; it was not stored`));
      // The last piece never went out: the body could not be whole.
      expect(pieces.reduce((a, b) => a + b, 0)).toBeLessThan(f.byteLength);
    }
  });
});

describe('what upload prints', () => {
  const a = file('a.txt', 5_000);
  const b = file('b.bin', 300_000);
  const addresses = () => `${emu.baseUrl}/storage/${SITE}/a.txt\n${emu.baseUrl}/storage/${SITE}/b.bin\n`;

  it('piped: the addresses alone on stdout, nothing on stderr, even while the body crawls', async () => {
    slowBody(1_000_000);
    const res = await cli(['upload', SITE, a, b]);
    expect(res).toEqual({ code: 0, stdout: addresses(), stderr: '' });
    expect(stored()).toEqual(expect.arrayContaining(['a.txt', 'b.bin']));
  });

  it('--json and --quiet on a terminal: stderr silent, stdout as ever', async () => {
    slowBody(1_000_000);
    const json = await cli(['upload', SITE, a, '--json'], { io: { stderrTTY: true, columns: 80 } });
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({
        siteId: SITE,
        file: a,
        name: 'a.txt',
        url: `${emu.baseUrl}/storage/${SITE}/a.txt`,
        size: 5_000,
        contentType: 'text/plain',
      }),
    ]);
    const quiet = await cli(['upload', SITE, a, b, '--quiet'], { tty: true, columns: 80 });
    expect(quiet).toEqual({ code: 0, stdout: addresses(), stderr: '' });
  });

  it('a terminal that only appends (TERM=dumb) gets the labels it always got', async () => {
    const res = await cli(['upload', SITE, a, b], { io: { tty: true, dumb: true, columns: 80 } });
    expect(res.stderr).toBe('Uploading\nUploading 1/2 a.txt\nUploading 2/2 b.bin\n');
    expect(res.stdout).toBe(addresses());
  });

  it('a terminal that redraws: a progress line that fits, then the addresses in its place', async () => {
    const res = await cli(['upload', SITE, a, b], { tty: true, columns: 60 });
    expect(res.code).toBe(0);
    // What the terminal was sent: each drawn line after a clear, within 60 columns less the ^C room.
    const drawn = res.stderr.split(/\r\u001b\[2K|\u001b\[1A/).filter((l) => l.trim() !== '');
    expect(drawn.length).toBeGreaterThan(1);
    for (const line of drawn) expect(displayWidth(line), line).toBeLessThanOrEqual(57);
    expect(drawn.some((l) => /2\/2 b\.bin {2}\d+(\.\d)?\/293 KiB {2}\d+%/.test(l))).toBe(true);
    expect(res.stdout).toBe(addresses());
    // The line is gone at the end: the last thing written to stderr clears it.
    expect(res.stderr.endsWith('\r\u001b[2K')).toBe(true);
  });
});

describe('Ctrl-C mid-transfer', () => {
  /** The CLI in-process over an IO the test reads while it runs (run() gives it only at the end). */
  function started(argv: string[], io: Parameters<typeof createTestIO>[0]) {
    const testIO = createTestIO(io);
    testIO.stdinStream.end();
    const controller = new AbortController();
    const done = main(argv, {
      io: testIO,
      env: { ...env, SITEBUILDER_CONFIG_DIR: tempConfigDir() },
      clock,
      signal: controller.signal,
    });
    return { io: testIO, done, interrupt: () => controller.abort(new InterruptedError()) };
  }
  const quoted = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

  it('stops at once and says what was stored, what was not, and what was never sent', async () => {
    const first = file('first.txt', 1_000);
    // Larger than what the sockets buffer between the two ends (a few MB), so part of it is
    // still here when Ctrl-C comes.
    const big = file('big.bin', 16_000_000);
    const last = file('last.txt', 10);
    // The first file goes at full speed, the second crawls.
    emu.control.addFault({ method: 'upload_storage_file', bytesPerSecond: 1e12 });
    emu.control.addFault({ method: 'upload_storage_file', bytesPerSecond: 2_500_000 });
    const cli = started(['upload', SITE, first, big, last], { tty: true, columns: 200 });
    // Once part of big.bin went out, as its progress line says, interrupt. The line's share is
    // estimated from the rate, measured on the clock: it is moved on as the test waits.
    await expect
      .poll(
        () => {
          clock.advance(100);
          return / big\.bin {2}\S+\/15\.3 MiB {2}[1-9]\d?% /.test(cli.io.stderrText());
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    cli.interrupt();
    const code = await cli.done;
    // It ended before the emulator was even done with what the sockets held of big.bin.
    expect(emu.control.log({ method: 'upload_storage_file' })).toHaveLength(1);
    expect(code).toBe(130);
    expect(cli.io.stdoutText()).toBe(`${emu.baseUrl}/storage/${SITE}/first.txt\n`);
    // The progress line was cleared, and the sentence written in its place (read unwrapped: where
    // it wraps depends on the length of the temporary directory's path).
    const err = cli.io.stderrText();
    expect(err.slice(err.lastIndexOf('\r\u001b[2K')).replace(/\n {2}/g, ' ')).toMatch(
      new RegExp(
        `^\r\u001b\\[2KInterrupted: ${quoted(big)} was not stored \\(\\d+% of it had been sent\\)\\. 1 of 3 files was uploaded before it\\. ${quoted(last)} was not sent\\.\n$`,
      ),
    );
    // What it said: first.txt alone is stored, big.bin never whole. The emulator reads what the
    // sockets still held, then finds the body cut off: a 400.
    await expect.poll(() => emu.control.log({ method: 'upload_storage_file' }).length, { timeout: 15_000 }).toBe(2);
    expect(stored()).not.toContain('big.bin');
    expect(stored()).toContain('first.txt');
    expect(emu.control.log({ method: 'upload_storage_file' }).map((e) => e.status)).toEqual([200, 400]);
  });

  it('--json: the error document lists what was uploaded and what was not', async () => {
    const big = file('big2.bin', 16_000_000);
    slowBody(2_500_000);
    const cli = started(['upload', SITE, big, '--json'], {});
    // Its body is on its way: the emulator took the fault when it began reading it.
    await expect.poll(() => emu.control.faults()[0]?.hits ?? 1, { timeout: 10_000 }).toBe(1);
    cli.interrupt();
    expect(await cli.done).toBe(130);
    expect(cli.io.stdoutText()).toBe('');
    const doc = JSON.parse(cli.io.stderrText()).error;
    expect(doc.exitCode).toBe(130);
    expect(doc.message).toMatch(
      /^Interrupted: .*big2\.bin was (not stored \(\d+% of it had been sent\)|not sent)\. Nothing was uploaded\.$/,
    );
    expect(doc.uploaded).toEqual([]);
    expect(doc.interrupted).toMatchObject({ file: big, name: 'big2.bin' });
    expect(doc.notSent).toEqual([]);
    await expect.poll(() => emu.control.log({ method: 'upload_storage_file' }).length, { timeout: 15_000 }).toBe(1);
    expect(stored()).not.toContain('big2.bin');
  });
});

describe('a file that becomes a FIFO after the check', () => {
  const toFifo = (path: string) => {
    mkfifo(`${path}.tmp`);
    renameSync(`${path}.tmp`, path);
  };

  it('is refused when it is opened to be sent, instead of hanging (replaced during the site picker)', async () => {
    const fifo = file('fifo-picked.bin', 100);
    // While the site is being picked (after the file was checked), the file is replaced.
    const prompter = new ScriptedPrompter([{ select: SITE, then: () => toFifo(fifo) }]);
    const res = await cli(['upload', fifo], { prompter });
    expect(prompter.asked).toEqual(['Which site?']);
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${fifo} is now a FIFO, not the regular file that was checked; it was not sent.\n`,
    });
    expect(emu.control.log({ method: 'upload_storage_file' })).toEqual([]);
  });

  it('is refused when its turn comes after another file was uploaded', async () => {
    const ok = file('kept.txt', 100);
    const fifo = file('fifo-later.bin', 100);
    // The first answer waits: meanwhile (the second file checked long before) it is replaced.
    emu.control.addFault({ method: 'upload_storage_file', latencyMs: 600 });
    const running = cli(['upload', SITE, ok, fifo]);
    await expect.poll(() => emu.control.faults().length).toBe(0);
    toFifo(fifo);
    const res = await running;
    expect(res.code).toBe(2);
    expect(res.stdout).toBe(`${emu.baseUrl}/storage/${SITE}/kept.txt\n`);
    expect(res.stderr).toBe(
      `1 of 2 files was uploaded before ${fifo} failed.\nerror: ${fifo} is now a FIFO, not the regular file that was checked; it was not sent.\n`,
    );
    expect(stored()).toContain('kept.txt');
    expect(stored()).not.toContain('fifo-later.bin');
  });
});
