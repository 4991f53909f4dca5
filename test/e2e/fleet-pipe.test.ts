// A batch whose reader stops early (`| head -1`), with the built binary in bash under pipefail:
// the exit code is the worst of the sites that ended, 8 for a site not followed to its end, never
// 0 for a batch with a failure (docs/scripting.md "Many sites at once").
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const SPEED = 20;
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: SPEED });
});
afterAll(() => emu.close());

/** `sitebuilder ARGS | head -1` under pipefail: the line head printed, the CLI's exit code, its stderr. */
function headOne(args: string[]): Promise<{ line: string; code: number; stderr: string }> {
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const script = `set -o pipefail; "${process.execPath}" "${BIN}" ${quoted} 2>"$ERR" | head -1; echo "EXIT=\${PIPESTATUS[0]}"; cat "$ERR"`;
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', script], {
      env: {
        PATH: process.env.PATH,
        // Without HOME the code cache would go to the real home directory: the suite's own instead.
        HOME: '/nonexistent',
        XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
        ERR: join(mkdtempSync(join(tmpdir(), 'sb-pipe-')), 'stderr'),
        SITEBUILDER_BASE_URL: emu.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-pipe-')), 'config'),
        SITEBUILDER_CLOCK_SPEED: String(SPEED),
        NO_COLOR: '1',
      },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.on('error', fail);
    child.on('close', () => {
      const [line, rest] = out.split(/\n(?=EXIT=)/);
      const m = /^EXIT=(\d+)\n([\s\S]*)$/.exec(rest ?? '');
      done({ line, code: Number(m?.[1]), stderr: m?.[2] ?? '' });
    });
  });
}

/** Sites of a new workspace, by the outcome asked for each (in that order). */
function sites(ws: string, outcomes: Array<'success' | 'failure' | 'slow'>): string[] {
  emu.control.createWorkspace({ _id: ws, name: ws, credits: 100_000 });
  const made = emu.control.addSites(ws, {
    count: outcomes.length,
    outcomes: {
      failure: outcomes.filter((o) => o === 'failure').length,
      slow: outcomes.filter((o) => o === 'slow').length,
    },
    slowSeconds: 20,
  });
  const byOutcome = (o: string) => made.filter((s) => (emu.emulator.site(s._id)?.outcome ?? 'success') === o);
  const taken = new Set<string>();
  return outcomes.map((o) => {
    const site = byOutcome(o).find((s) => !taken.has(s._id))!;
    taken.add(site._id);
    return site._id;
  });
}

describe.concurrent('a batch read by `| head -1`', () => {
  it('exits with the failure it printed, not 0', async () => {
    const [failing, slow] = sites('ws_pipe_fail', ['failure', 'slow']);
    const res = await headOne(['publish', failing, slow]);
    expect(res.line.split('\t').slice(0, 2)).toEqual([failing, 'failed']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Standard output was closed: 2 of 2 sites ended\. Exit 1\.\n$/);
  });

  it('exits 8 while a site was not followed to its end', async () => {
    const [a, b, slow] = sites('ws_pipe_open', ['success', 'success', 'slow']);
    const res = await headOne(['publish', a, b, slow, '--concurrency', '1', '--json']);
    expect(JSON.parse(res.line)).toMatchObject({ type: 'site', siteId: a, outcome: 'live', exitCode: 0 });
    expect(res.code).toBe(8);
    // --json keeps stderr for JSON errors: nothing else is said there.
    expect(res.stderr).toBe('');
    const plain = await headOne([
      'publish',
      ...sites('ws_pipe_open_tsv', ['success', 'success', 'slow']),
      '--concurrency',
      '1',
    ]);
    expect(plain.code).toBe(8);
    expect(plain.stderr).toMatch(
      /Standard output was closed: 2 of 3 sites ended, 1 not followed to the end\. Exit 8\.\n$/,
    );
  });
});
