import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigDirError } from '../../src/config/errors.js';
import { forgetRuns, type KnownRun, knownRuns, RUNS_LIMITS, rememberRun, runsScope } from '../../src/config/runs.js';
import { ConfigStore } from '../../src/config/store.js';
import { tempConfigDir } from '../helpers/run.js';

const store = () => new ConfigStore(tempConfigDir());

describe('known runs (runs.json)', () => {
  it('is empty until a run is remembered, and creates nothing when read', () => {
    const s = store();
    expect(knownRuns(s, 'default', 'site_a')).toEqual([]);
    expect(() => statSync(s.dir)).toThrow();
  });

  it('keeps runs per profile and site, newest first, in a 0600 file beside config.json', async () => {
    const s = store();
    await rememberRun(s, 'default', 'site_a', { jobId: 'job_1', startedAt: 1_000, mode: 'build' });
    await rememberRun(s, 'default', 'site_a', { jobId: 'job_3', startedAt: 3_000, mode: 'plan' });
    await rememberRun(s, 'default', 'site_a', { jobId: 'job_2', startedAt: 2_000 });
    await rememberRun(s, 'default', 'site_b', { jobId: 'job_b', startedAt: 5_000 });
    await rememberRun(s, 'staging', 'site_a', { jobId: 'job_s', startedAt: 4_000 });
    expect(knownRuns(s, 'default', 'site_a')).toEqual([
      { jobId: 'job_3', startedAt: 3_000, mode: 'plan' },
      { jobId: 'job_2', startedAt: 2_000 },
      { jobId: 'job_1', startedAt: 1_000, mode: 'build' },
    ]);
    expect(knownRuns(s, 'default', 'site_b').map((r) => r.jobId)).toEqual(['job_b']);
    expect(knownRuns(s, 'staging', 'site_a').map((r) => r.jobId)).toEqual(['job_s']);
    expect(knownRuns(s, 'other', 'site_a')).toEqual([]);
    const file = join(s.dir, 'runs.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(s.dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(2);
  });

  it('remembers a run once: it keeps its first start and takes a newer mode', async () => {
    const s = store();
    await rememberRun(s, 'p', 'site', { jobId: 'job_1', startedAt: 1_000, mode: 'plan' });
    await rememberRun(s, 'p', 'site', { jobId: 'job_2', startedAt: 2_000 });
    await rememberRun(s, 'p', 'site', { jobId: 'job_1', startedAt: 9_000 });
    await rememberRun(s, 'p', 'site', { jobId: 'job_2', startedAt: 9_000, mode: 'build' });
    expect(knownRuns(s, 'p', 'site')).toEqual([
      { jobId: 'job_2', startedAt: 2_000, mode: 'build' },
      { jobId: 'job_1', startedAt: 1_000, mode: 'plan' },
    ]);
  });

  it('latest: a run new here is newer than every run and end remembered before it, whatever its clock says', async () => {
    const s = store();
    // One process's clock ran ahead (an emulated one, or another set later): its run and the end it saw.
    await rememberRun(s, 'p', 'site', {
      jobId: 'job_1',
      startedAt: 9_000,
      seen: { outcome: 'question', at: 12_000, prints: [] },
    });
    // The next process's clock is behind: its run is still the one met last.
    await rememberRun(s, 'p', 'site', { jobId: 'job_2', startedAt: 2_000 }, { latest: true });
    expect(knownRuns(s, 'p', 'site').map((r) => [r.jobId, r.startedAt])).toEqual([
      ['job_2', 12_001],
      ['job_1', 9_000],
    ]);
    // A run already known keeps its place; without `latest`, the clock's time is kept (a run kept as the oldest).
    await rememberRun(s, 'p', 'site', { jobId: 'job_1', startedAt: 20_000 }, { latest: true });
    await rememberRun(s, 'p', 'site', { jobId: 'job_0', startedAt: 0 });
    expect(knownRuns(s, 'p', 'site').map((r) => r.jobId)).toEqual(['job_2', 'job_1', 'job_0']);
    // Its end, noted by the clock that is behind: it stays the newest (no earlier start taken).
    await rememberRun(
      s,
      'p',
      'site',
      { jobId: 'job_2', startedAt: 2_500, seen: { outcome: 'question', at: 2_400, prints: [] } },
      { latest: true },
    );
    expect(knownRuns(s, 'p', 'site').map((r) => [r.jobId, r.startedAt])).toEqual([
      ['job_2', 12_001],
      ['job_1', 9_000],
      ['job_0', 0],
    ]);
  });

  it('puts the run remembered last first among runs of the same instant', async () => {
    const s = store();
    for (const jobId of ['job_a', 'job_b', 'job_c']) await rememberRun(s, 'p', 'site', { jobId, startedAt: 7 });
    expect(knownRuns(s, 'p', 'site').map((r) => r.jobId)).toEqual(['job_c', 'job_b', 'job_a']);
  });

  it('is bounded: the last runs of a site, the sites and profiles with the newest runs', async () => {
    const s = store();
    const { runsPerSite, sitesPerProfile, scopes: profiles } = RUNS_LIMITS;
    // Written as a file would be after a long use, then one more run of each kind.
    const runs = (site: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ jobId: `job_${site}_${i}`, startedAt: site * 1_000 + i }));
    const sites = Object.fromEntries(
      Array.from({ length: sitesPerProfile }, (_, i) => [`site_${i}`, runs(i, runsPerSite)]),
    );
    const all = Object.fromEntries(Array.from({ length: profiles }, (_, i) => [`p${i}`, { site_0: runs(i, 1) }]));
    mkdirSync(s.dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(s.dir, 'runs.json'), JSON.stringify({ version: 2, scopes: { ...all, p0: sites } }));

    await rememberRun(s, 'p0', 'site_0', { jobId: 'job_new', startedAt: 1_000_000 });
    const site0 = knownRuns(s, 'p0', 'site_0');
    expect(site0).toHaveLength(runsPerSite);
    expect(site0[0].jobId).toBe('job_new');
    expect(site0.at(-1)?.jobId).toBe('job_0_1');

    // site_0 now has the newest run of p0: a new site drops site_1, whose latest run is oldest.
    await rememberRun(s, 'p0', 'site_new', { jobId: 'job_x', startedAt: 1_000_001 });
    expect(knownRuns(s, 'p0', 'site_new')).toHaveLength(1);
    expect(knownRuns(s, 'p0', 'site_1')).toEqual([]);
    expect(knownRuns(s, 'p0', 'site_2')).toHaveLength(runsPerSite);

    // A new profile drops p1, the profile whose latest run is oldest (p0's are newest).
    await rememberRun(s, 'p_new', 'site_0', { jobId: 'job_y', startedAt: 2_000_000 });
    expect(knownRuns(s, 'p_new', 'site_0')).toHaveLength(1);
    expect(knownRuns(s, 'p1', 'site_0')).toEqual([]);
    expect(knownRuns(s, 'p2', 'site_0')).toHaveLength(1);
    const saved = JSON.parse(readFileSync(join(s.dir, 'runs.json'), 'utf8'));
    expect(Object.keys(saved.scopes)).toHaveLength(profiles);
    expect(Object.keys(saved.scopes.p0)).toHaveLength(sitesPerProfile);
  });

  it('leaves out what does not have the shape of a run, and starts afresh over a broken file', async () => {
    const s = store();
    mkdirSync(s.dir, { recursive: true, mode: 0o700 });
    const file = join(s.dir, 'runs.json');
    const bad: unknown[] = [
      { jobId: '', startedAt: 1 },
      { jobId: 'job_n', startedAt: '1' },
      { jobId: 'job_m', startedAt: 1, mode: 'other' },
      { jobId: 'x'.repeat(257), startedAt: 1 },
      'job_1',
      null,
    ];
    writeFileSync(
      file,
      JSON.stringify({ version: 2, scopes: { p: { site: [...bad, { jobId: 'job_ok', startedAt: 2 }] } } }),
    );
    expect(knownRuns(s, 'p', 'site')).toEqual([{ jobId: 'job_ok', startedAt: 2 }]);
    writeFileSync(file, '{"version": 2, "scopes": ');
    expect(knownRuns(s, 'p', 'site')).toEqual([]);
    await rememberRun(s, 'p', 'site', { jobId: 'job_1', startedAt: 1 });
    expect(knownRuns(s, 'p', 'site')).toEqual([{ jobId: 'job_1', startedAt: 1 }]);
  });

  it('refuses a run without a job id or a start', async () => {
    const s = store();
    await expect(rememberRun(s, 'p', 'site', { jobId: '', startedAt: 1 })).rejects.toThrow(TypeError);
    await expect(rememberRun(s, 'p', 'site', { jobId: 'j', startedAt: Number.NaN } as KnownRun)).rejects.toThrow(
      TypeError,
    );
  });

  it('keeps sites and profiles named like Object.prototype keys as data', async () => {
    const s = store();
    await rememberRun(s, '__proto__', 'constructor', { jobId: 'job_1', startedAt: 1 });
    expect(knownRuns(s, '__proto__', 'constructor')).toEqual([{ jobId: 'job_1', startedAt: 1 }]);
    expect(knownRuns(s, 'default', 'toString')).toEqual([]);
  });

  it('neither reads nor writes runs in a shared directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-shared-'));
    chmodSync(dir, 0o1777);
    const s = new ConfigStore(dir);
    await expect(rememberRun(s, 'p', 'site', { jobId: 'job_1', startedAt: 1 })).rejects.toBeInstanceOf(ConfigDirError);
    writeFileSync(join(dir, 'runs.json'), JSON.stringify({ version: 2, scopes: { p: { site: [] } } }));
    expect(() => knownRuns(s, 'p', 'site')).toThrow(ConfigDirError);
  });

  it('keeps runs per address as well as per profile: another address, or version 1, knows none', async () => {
    const s = store();
    const a = runsScope('emulator', 'http://127.0.0.1:4010/');
    expect(a).toBe(runsScope('emulator', 'http://127.0.0.1:4010'));
    const others = [
      runsScope('emulator', 'http://127.0.0.1:4011'),
      runsScope('emulator', 'https://api.example.com'),
      runsScope('prod', 'http://127.0.0.1:4010'),
    ];
    expect(new Set([a, ...others]).size).toBe(4);
    await rememberRun(s, a, 'site_a', { jobId: 'job_1', startedAt: 1 });
    expect(knownRuns(s, a, 'site_a').map((r) => r.jobId)).toEqual(['job_1']);
    for (const other of others) expect(knownRuns(s, other, 'site_a')).toEqual([]);
    // What version 1 kept per profile alone is not believed for any address.
    const file = join(s.dir, 'runs.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, profiles: { emulator: { site_a: [{ jobId: 'job_9', startedAt: 9 }] } } }),
    );
    expect(knownRuns(s, a, 'site_a')).toEqual([]);
    expect(knownRuns(s, 'emulator', 'site_a')).toEqual([]);
  });

  it('forgets the runs of one site of one scope, and nothing else', async () => {
    const s = store();
    await rememberRun(s, 'p', 'site_a', { jobId: 'job_1', startedAt: 1 });
    await rememberRun(s, 'p', 'site_a', { jobId: 'job_2', startedAt: 2 });
    await rememberRun(s, 'p', 'site_b', { jobId: 'job_3', startedAt: 3 });
    await rememberRun(s, 'q', 'site_a', { jobId: 'job_4', startedAt: 4 });
    await forgetRuns(s, 'p', 'site_a');
    expect(knownRuns(s, 'p', 'site_a')).toEqual([]);
    expect(knownRuns(s, 'p', 'site_b').map((r) => r.jobId)).toEqual(['job_3']);
    expect(knownRuns(s, 'q', 'site_a').map((r) => r.jobId)).toEqual(['job_4']);
    await forgetRuns(s, 'p', 'site_b');
    await forgetRuns(s, 'none', 'site_x');
    const saved = JSON.parse(readFileSync(join(s.dir, 'runs.json'), 'utf8'));
    expect(Object.keys(saved.scopes)).toEqual(['q']);
  });
});
