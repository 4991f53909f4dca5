// Many sites at once with the built binary (npm test builds it first) against emulators on port 0
// running 20 times faster than the wall clock: site ids on a real pipe, a real SIGINT in the middle
// of a publish batch and of a chat batch (every site's state reported, the commands that follow
// each one again), and two processes side by side on one token sharing its minute (both finish,
// no 429, no minute over the budget).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator } from '../../src/emulator/index.js';
import type { SiteOutcome } from '../../src/emulator/state.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { ID } from '../helpers/shapes.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const children: ChildProcess[] = [];
const emulator = ownEmulators({ speed: 20 });
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

interface Child {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

/** The binary, piped both ways, with its own config directory. */
function sitebuilder(emu: RunningEmulator, args: string[], stdin = ''): Child {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SITEBUILDER_')) base[k] = v;
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...base,
      NO_COLOR: '1',
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      // The CLI's waits (the poll floor) keep pace with the emulator's clock (docs/emulator.md).
      SITEBUILDER_CLOCK_SPEED: '20',
      SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-fleet-')), 'config'),
    },
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c));
  child.stderr?.on('data', (c: Buffer) => (err += c));
  child.stdin?.end(stdin);
  const exit = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

function fleet(emu: RunningEmulator, id: string, count: number, outcomes: Partial<Record<SiteOutcome, number>> = {}) {
  emu.control.createWorkspace({ _id: id, name: id, credits: 100_000 });
  return emu.control.addSites(id, { count, outcomes }).map((s) => s._id);
}
const rows = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
const arg = (e: { args?: unknown }, name: string) => (e.args as Record<string, unknown> | undefined)?.[name];

describe.concurrent('many sites with the binary', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator();
  });

  it('publishes the site ids piped to `-`', async () => {
    const sites = fleet(emu, 'ws_pipe', 3);
    const run = sitebuilder(emu, ['publish', '-'], `${sites.join('\n')}\n`);
    expect(await run.exit).toBe(0);
    expect(rows(run.stdout()).sort()).toEqual(sites.map((s) => [s, 'live', `${emu.baseUrl}/sites/${s}/`, '0']));
  });

  it('Ctrl-C in the middle of a publish batch: each site says how it stands, and how to follow it again', async () => {
    // Sites 1 and 3 take ten emulated minutes to publish; 2 and 4 the usual seconds. Two at a
    // time: 2 ends, 3 starts, and 4 is still to start when Ctrl-C comes.
    const sites = fleet(emu, 'ws_sigint', 4, { slow: 2 });
    expect(sites.map((s) => emu.emulator.site(s)?.outcome ?? 'success')).toEqual([
      'slow',
      'success',
      'slow',
      'success',
    ]);
    const run = sitebuilder(emu, ['publish', ...sites, '--concurrency', '2']);
    await waitFor(
      () =>
        run.stdout().includes(`${sites[1]}\tlive`) &&
        emu.control.log({ method: 'publish_site' }).some((e) => arg(e, 'projectId') === sites[2]),
      { what: 'site 2 live and site 3 started', detail: () => run.stdout() + run.stderr() },
    );
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    const out = rows(run.stdout());
    // The site that ended first, then those under way (in the order they stopped), then the one not started.
    expect(out[0]).toEqual([sites[1], 'live', `${emu.baseUrl}/sites/${sites[1]}/`, '0']);
    expect(out.slice(1, 3).sort()).toEqual([sites[0], sites[2]].map((s) => [s, 'detached', '', '130']));
    expect(out.slice(3)).toEqual([[sites[3], 'not-started', '', '130']]);
    const err = run.stderr();
    for (const s of [sites[0], sites[2]]) {
      expect(err).toContain(`${s}: Stopped following; the publish of ${s} goes on.`);
      expect(err).toContain(`  sitebuilder publish status ${s}`);
    }
    expect(err).toContain(`${sites[3]}: Not published: interrupted first.`);
    expect(err).toContain(`  sitebuilder publish ${sites[3]}`);
    expect(err).toMatch(/4 sites in (\d+m)?\d+s: .*; interrupted\. Exit 130\./);
    expect(err).toContain(
      '1 site was not started (outcome not-started above); give their ids, one a line, to: sitebuilder publish -',
    );
    // Nothing was published twice, and the fourth site never.
    expect(
      emu.control.log({ method: 'publish_site' }).filter((e) => sites.includes(arg(e, 'projectId') as string)),
    ).toHaveLength(3);
  });

  it('Ctrl-C in the middle of a chat batch: every run detached (it goes on) with the command that re-attaches', async () => {
    const sites = fleet(emu, 'ws_chat_sigint', 3, { slow: 2 });
    const slow = sites.filter((s) => emu.emulator.site(s)?.outcome === 'slow');
    const run = sitebuilder(emu, ['chat', ...sites, 'Update the footer year to 2027', '--concurrency', '2']);
    // Both runs under way are followed (or one has ended and the third has started).
    await waitFor(() => new Set(emu.control.log({ method: 'get_job' }).map((e) => arg(e, 'projectId'))).size >= 2, {
      what: 'two runs followed',
      detail: () => run.stdout() + run.stderr(),
    });
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    const out = rows(run.stdout());
    expect(out).toHaveLength(3);
    const sent = emu.control.log({ method: 'send_message' });
    for (const s of slow) {
      const row = out.find((r) => r[0] === s)!;
      expect(row[1]).toBe('detached');
      expect(row[2]).toMatch(new RegExp(`^${ID('job')}$`));
      expect(run.stderr()).toContain(`  sitebuilder job watch ${s} ${row[2]}`);
      // Ctrl-C detached from the run; it was not cancelled.
      expect(sent.some((e) => arg(e, 'projectId') === s)).toBe(true);
    }
    expect(emu.control.log({ method: 'cancel_job' })).toHaveLength(0);
    expect(run.stderr()).toMatch(/3 sites in (\d+m)?\d+s: .*; interrupted\. Exit 130\./);
  });

  it('two processes on one token share its minute: both finish, no 429 is met, no minute goes over the budget', async () => {
    const emu = await emulator();
    emu.control.setBudget({ callsPerMinute: 40 });
    const a = fleet(emu, 'ws_one', 12);
    const b = fleet(emu, 'ws_two', 12);
    const one = sitebuilder(emu, ['publish', '--workspace', 'ws_one', '--all-sites', '--json']);
    const two = sitebuilder(emu, ['publish', '--workspace', 'ws_two', '--all-sites', '--json']);
    expect(await one.exit).toBe(0);
    expect(await two.exit).toBe(0);
    for (const [run, sites] of [
      [one, a],
      [two, b],
    ] as const) {
      const records = run
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(
        records
          .slice(0, -1)
          .map((r) => r.siteId)
          .sort(),
      ).toEqual(sites);
      expect(records.at(-1)).toMatchObject({ type: 'summary', sites: 12, exitCode: 0, rateLimited: 0 });
    }
    const log = emu.control.log();
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    // The minutes as the emulator counts them: each starts with the first call after the last ran out.
    const minutes: number[] = [];
    let start = Number.NEGATIVE_INFINITY;
    for (const e of log.filter((x) => x.counted)) {
      const t = Date.parse(e.time);
      if (t >= start + 60_000) {
        start = t;
        minutes.push(0);
      }
      minutes[minutes.length - 1]++;
    }
    // 50 calls at least: two minutes of 40.
    expect(minutes.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...minutes)).toBeLessThanOrEqual(40);
  });
});
