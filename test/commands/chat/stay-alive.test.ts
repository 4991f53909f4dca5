// Staying alive (docs/scripting.md "Exit codes"): a followed run, publish or restore outlives a
// lost service. The emulator is stopped mid-follow (its state saved) and, in some tests, started
// again on the same port with that state, so the run goes on where it was. Every clock is the
// emulator's FakeClock: the CLI's backoff moves emulated time, nothing waits on the wall clock.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Clock, FakeClock } from '../../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { Interrupts } from '../../../src/interrupts.js';
import { tempConfigDir } from '../../helpers/run.js';
import { knowLatestRun, ndjson, runCli } from './helpers.js';

const SITE = 'site_bakery';

/** One emulator that can be stopped and started again on its port, keeping its state. */
class Service {
  emu!: RunningEmulator;
  private port = 0;
  private readonly file = join(mkdtempSync(join(tmpdir(), 'sitebuilder-stay-alive-')), 'state.json');
  stoppedAt?: number;
  constructor(readonly clock: FakeClock) {}
  async start(): Promise<this> {
    this.emu = await startEmulator({ port: this.port, clock: this.clock, ...(this.port && { stateFile: this.file }) });
    this.port = Number(new URL(this.emu.baseUrl).port);
    this.stoppedAt = undefined;
    return this;
  }
  async stop(): Promise<void> {
    await this.emu.saveState(this.file);
    await this.emu.close();
    this.stoppedAt = this.clock.now();
  }
  get down(): boolean {
    return this.stoppedAt !== undefined;
  }
  calls(method: string): number {
    return this.emu.control.log({ method }).length;
  }
}

/** The CLI's clock: before each sleep, `hook` may stop or start the service (time is the service's). */
const hooked = (clock: FakeClock, hook: () => Promise<void> | void): Clock => ({
  now: () => clock.now(),
  sleep: async (ms, signal) => {
    await hook();
    return clock.sleep(ms, signal);
  },
});

let clock: FakeClock;
let service: Service;
let env: Record<string, string>;

beforeEach(async () => {
  clock = new FakeClock();
  service = await new Service(clock).start();
  const configDir = tempConfigDir();
  env = {
    SITEBUILDER_BASE_URL: service.emu.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    NO_COLOR: '1',
    SITEBUILDER_CONFIG_DIR: configDir,
  };
  await knowLatestRun(service.emu, configDir, SITE);
});
afterEach(() => service.emu.close());

/** Stops the service once `method` was answered `after` times; starts it again `downMs` later (never without). */
function outage(method: string, after: number, downMs?: number) {
  return async () => {
    if (!service.down && service.calls(method) >= after && !outage.done) {
      outage.done = true;
      await service.stop();
    } else if (service.down && downMs !== undefined && clock.now() - (service.stoppedAt ?? 0) >= downMs) {
      await service.start();
    }
  };
}
outage.done = false;
beforeEach(() => {
  outage.done = false;
});

const lostLines = (stderr: string) => stderr.split('\n').filter((l) => /Connection lost/.test(l));

describe('a followed run without the service', () => {
  it('chat --json: says "Connection lost, retrying" once, gives up after --reconnect-for with exit 8 and an end line that detaches', async () => {
    const c = hooked(clock, outage('get_job', 2));
    const r = await runCli(['chat', SITE, 'Add an about page and a contact page', '--json', '--reconnect-for', '1m'], {
      env,
      clock: c,
    });
    expect(r.code).toBe(8);
    const lines = ndjson(r.stdout);
    expect(lines[0]).toMatchObject({ type: 'start', projectId: SITE });
    expect(lines.filter((l) => l.type === 'end')).toHaveLength(1);
    expect(lines.at(-1)).toEqual(
      expect.objectContaining({
        type: 'end',
        state: 'running',
        outcome: 'detached',
        reason: 'connection_lost',
        exitCode: 8,
        reattach: `sitebuilder job watch ${SITE} ${lines[0].jobId}`,
      }),
    );
    expect(lostLines(r.stderr)).toEqual(['Connection lost (connection refused); retrying for up to 1 min.']);
    expect(r.stderr).not.toMatch(/Connection back/);
    // It tried for the minute it was told, and then gave up: not sooner, and not much later.
    const down = clock.now() - (service.stoppedAt ?? 0);
    expect(down).toBeGreaterThanOrEqual(60_000);
    expect(down).toBeLessThan(70_000);
  });

  it('chat: a service back within the time resumes the run to its real end, each line once', async () => {
    const c = hooked(clock, outage('get_job', 2, 20_000));
    const r = await runCli(['chat', SITE, 'Add an about page and a contact page'], { env, clock: c });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^end\tsucceeded\texit=0\tcredits=\d+$/m);
    expect(r.stdout.match(/^file\t\+\tabout\.html$/gm)).toHaveLength(1);
    expect(r.stdout.match(/^text\tI'll update/gm)).toHaveLength(1);
    expect(lostLines(r.stderr)).toEqual(['Connection lost (connection refused); retrying for up to 5 min.']);
    expect(r.stderr.match(/^Connection back after \d+ s; going on\.$/gm)).toHaveLength(1);
  });

  it('job watch: exit 8 with the re-attach command, which then follows the run to its end', async () => {
    const started = await runCli(['chat', SITE, 'Add an about page and a contact page', '--no-follow'], {
      env,
      clock,
    });
    const jobId = started.stdout.trim();
    const c = hooked(clock, outage('get_job', 2));
    const r = await runCli(['job', 'watch', SITE, jobId, '--reconnect-for', '30s'], { env, clock: c });
    expect(r.code).toBe(8);
    expect(r.stdout).toMatch(/^end\tdetached\texit=8\treason=connection_lost$/m);
    expect(lostLines(r.stderr)).toHaveLength(1);
    const reattach = /Re-attach with: (.*)$/m.exec(r.stderr)?.[1];
    expect(reattach).toBe(`sitebuilder job watch ${SITE} ${jobId}`);
    await service.start();
    const again = await runCli(reattach!.split(' ').slice(1), { env, clock });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^end\tsucceeded\texit=0/m);
  });

  it('5xx answers for a while are a lost connection too; the run goes on when they stop', async () => {
    let faulted = false;
    const c = hooked(clock, () => {
      if (!faulted && service.calls('get_job') >= 2) {
        faulted = true;
        service.emu.control.addFault({ method: 'get_job', status: 503, times: 7 });
      }
    });
    const r = await runCli(['chat', SITE, 'Add an about page and a contact page', '--json'], { env, clock: c });
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout).at(-1)).toMatchObject({ type: 'end', outcome: 'succeeded', reason: null });
    expect(lostLines(r.stderr)).toEqual(['Connection lost (HTTP 503); retrying for up to 5 min.']);
    expect(r.stderr).toMatch(/Connection back after/);
    // Never two reads of the run within the poll floor, retries included.
    const jobId = ndjson(r.stdout)[0].jobId;
    const times = service.emu.control
      .log({ method: 'get_job' })
      .filter((e) => (e.args as { jobId?: string }).jobId === jobId)
      .map((e) => Date.parse(e.time));
    expect(times.length).toBeGreaterThanOrEqual(2 + 7);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(2_000);
  });

  it('a refusal that will not change stops at once with its exit code, after the end line', async () => {
    let faulted = false;
    const c = hooked(clock, () => {
      if (!faulted && service.calls('get_job') >= 2) {
        faulted = true;
        service.emu.control.addFault({ method: 'get_job', status: 403, times: 1 });
      }
    });
    const r = await runCli(['chat', SITE, 'Add an about page and a contact page', '--json'], { env, clock: c });
    expect(r.code).toBe(4);
    expect(ndjson(r.stdout).at(-1)).toMatchObject({ type: 'end', outcome: 'detached', reason: 'refused', exitCode: 4 });
    expect(JSON.parse(r.stderr).error.exitCode).toBe(4);
    expect(r.stderr).not.toMatch(/Connection lost/);
    expect(service.calls('get_job')).toBe(3);
  });

  it('Ctrl-C while it waits to try again detaches at once (job watch: 130)', async () => {
    const started = await runCli(['chat', SITE, 'Add an about page and a contact page', '--no-follow'], {
      env,
      clock,
    });
    const interrupts = new Interrupts();
    const stop = outage('get_job', 2);
    let sleepsDown = 0;
    const c = hooked(clock, async () => {
      await stop();
      // The client's own three retries, then the first wait of the reconnect: Ctrl-C there.
      if (service.down && ++sleepsDown === 4) interrupts.fire();
    });
    const r = await runCli(['job', 'watch', SITE, started.stdout.trim(), '--json'], { env, clock: c, interrupts });
    expect(r.code).toBe(130);
    expect(ndjson(r.stdout).at(-1)).toMatchObject({ type: 'end', outcome: 'detached', reason: 'interrupted' });
    expect(clock.now() - (service.stoppedAt ?? 0)).toBeLessThan(20_000);
  });
});

describe('publish and storage restore without the service', () => {
  it('publish: exit 8 naming `publish status SITE --wait`, the status document with --json; that command then waits it out', async () => {
    const c = hooked(clock, outage('get_publish_status', 1));
    const r = await runCli(['publish', SITE, '--json', '--reconnect-for', '20s'], { env, clock: c });
    expect(r.code).toBe(8);
    expect(JSON.parse(r.stdout)).toMatchObject({ siteId: SITE, running: true, waited: true });
    const error = JSON.parse(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1)!,
    ).error;
    expect(error.message).toMatch(
      /^No connection to the service for 2\d s \(connection refused\)\. Stopped waiting; the publish of site_bakery may go on\. Follow it with `sitebuilder publish status site_bakery --wait`\.$/,
    );
    expect(lostLines(r.stderr)).toHaveLength(1);
    await service.start();
    const again = await runCli(['publish', 'status', SITE, '--wait'], { env, clock });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^status\tready$/m);
  });

  it('publish: a service back within the time ends live, with the address', async () => {
    const c = hooked(clock, outage('get_publish_status', 1, 15_000));
    const r = await runCli(['publish', SITE], { env, clock: c });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^https?:\/\/\S+\n$/);
    expect(lostLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^Connection back after \d+ s; going on\.$/m);
  });

  it('storage-restore status --wait: exit 8 naming the command that follows it again; back, it completes', async () => {
    const res = await fetch(`${service.emu.baseUrl}/_emulator/sites/${SITE}/storage-backups`);
    const backup = ((await res.json()) as any).data.find((b: any) => b.label === 'Weekly backup').backupId;
    const started = await runCli(['storage-restore', SITE, '-b', backup, '-m', 'full', '--yes', '--no-wait'], {
      env,
      clock,
    });
    expect(started.code).toBe(0);
    const restoreId = started.stdout.trim();
    const c = hooked(clock, outage('get_storage_restore_status', 1));
    const r = await runCli(['storage-restore', 'status', SITE, restoreId, '--wait', '--reconnect-for', '10s'], {
      env,
      clock: c,
    });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`Follow it with \`sitebuilder storage-restore status ${SITE} ${restoreId} --wait\`.`);
    expect(lostLines(r.stderr)).toHaveLength(1);
    await service.start();
    const again = await runCli(['storage-restore', 'status', SITE, restoreId, '--wait'], { env, clock });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^status\tcompleted$/m);
  });
});
