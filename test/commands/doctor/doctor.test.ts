// `sitebuilder doctor` against the emulator, in the shapes of the project (default, alternate):
// what it reads (three GET addresses, at most five counted calls, never a write: the request log
// says), what it reports (every field of the catalogue, found where the answer's own shape has
// it), how it fails (a call refused or failed, a token without a scope, a token refused, bad
// input) and how it prints (piped rows, a terminal of 80, 60 and 40 columns).
import { beforeAll, beforeEach, afterAll, describe, expect, it } from 'vitest';
import { methodInfo } from '../../../src/api/method-index.js';
import { FakeClock } from '../../../src/clock.js';
import type { DoctorReport } from '../../../src/commands/doctor/report.js';
import { CHAT_DOMAIN, type ChatSlice } from '../../../src/emulator/domains/chat/slice.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { displayWidth } from '../../../src/io/width.js';
import { catalogueFields } from '../../../src/service/catalogue.js';
import { run } from '../../helpers/run.js';
import { checkReport } from '../../helpers/doctor-report.js';

const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;
const cli = (argv: string[], opts: Parameters<typeof run>[1] = {}) =>
  run(argv, { clock, ...opts, env: { ...env, ...opts.env } });
const doctorJson = async (argv: string[] = [], extra: Record<string, string> = {}) => {
  const r = await cli(['doctor', '--json', ...argv], { env: extra });
  return { ...r, report: JSON.parse(r.stdout) as DoctorReport };
};
const log = () => emu.control.log();

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(() => emu.control.reset());
afterAll(() => emu.close());

describe('sitebuilder doctor', () => {
  it('reads the three GET addresses and at most five counted calls, all reads; nothing is written', async () => {
    const { code, stderr, report } = await doctorJson();
    expect(code, stderr).toBe(0);
    const entries = log();
    expect(entries.filter((e) => e.verb === 'GET').map((e) => e.path)).toEqual([
      '/v1/token',
      '/v1/tools',
      '/v1/openapi.json',
    ]);
    const posts = entries.filter((e) => e.verb === 'POST');
    // get_job when a run of the site can be named (its history's records show one the model can
    // read, in these shapes or not); else the next call of the plan takes its turn.
    const fifth =
      report.targets.run === null
        ? ['list_storage_backups', 'get_site_email_settings']
        : ['get_job', 'list_storage_backups'];
    expect(posts.map((e) => e.method)).toEqual(['list_workspaces', 'list_sites', 'list_messages', ...fifth]);
    for (const e of posts) expect(methodInfo(e.method ?? '')?.write, e.method ?? '').toBe(false);
    expect(entries.filter((e) => e.counted)).toHaveLength(5);
    expect(entries.filter((e) => e.idempotencyKey !== null)).toEqual([]);
    expect(report.counted).toEqual({ made: 5, max: 5 });
    // Records are counted in lists only: the token is one record, the description a document.
    expect(report.calls.slice(0, 3).map((c) => c.records)).toEqual([null, expect.any(Number), null]);
    expect(report.exitCode).toBe(0);
    expect(report.calls.filter((c) => c.outcome === 'not made').map((c) => c.method)).toEqual(
      report.targets.run === null ? ['get_publish_status'] : ['get_site_email_settings', 'get_publish_status'],
    );
  });

  it('reports every field of the catalogue once: found where its answer holds it, not found, or not checked and why', async () => {
    const { report } = await doctorJson();
    // Found paths checked against the shape of the answer they were found in.
    expect(checkReport(report, 'the project’s shapes')).toBeGreaterThan(20);
    // What the reference states is found where it states it, in either shapes.
    const row = (resource: string, field: string) =>
      report.fields.find((f) => f.resource === resource && f.field === field);
    expect(row('site record', 'id')).toMatchObject({ status: 'found', path: '_id', method: 'list_sites' });
    if (report.targets.run !== null) {
      expect(row('job', 'state')).toMatchObject({ status: 'found', path: 'state', method: 'get_job' });
      expect(row('job', 'error')?.reason).toMatch(/^run \S+ did not fail \(its state: succeeded\)$/);
    } else expect(row('job', 'state')?.reason).toMatch(/^get_job was not called: .*; name one with --job$/);
    expect(row('token record', 'rateLimit')).toMatchObject({ status: 'found', path: 'rateLimit' });
    expect(row('send_message answer', 'jobId')).toMatchObject({
      status: 'not checked',
      reason: 'only the answer of a write holds it, and doctor never writes',
    });
    expect(report.summary.fields).toBe(catalogueFields().length);
  });

  it('the site named, --workspace and --job are the ones read', async () => {
    const jobs = (emu.state.domains[CHAT_DOMAIN] as ChatSlice).jobs;
    const jobId = Object.values(jobs).find((j) => j.siteId === 'site_docs')?.jobId;
    expect(jobId).toEqual(expect.any(String));
    const { code, report } = await doctorJson(['site_docs', '--workspace', 'ws_demo', '--job', String(jobId)]);
    expect(code).toBe(0);
    const args = (m: string) => log().find((e) => e.method === m)?.args;
    expect(args('list_sites')).toEqual({ workspaceId: 'ws_demo' });
    expect(args('list_messages')).toEqual({ projectId: 'site_docs' });
    expect(args('get_job')).toEqual({ projectId: 'site_docs', jobId, cursor: 0 });
    expect(report.targets).toMatchObject({ site: 'site_docs', siteFrom: 'named', run: jobId, runFrom: '--job' });
    // site_docs has no storage backup: its fields are not checked, and say why.
    const backup = report.fields.filter((f) => f.resource === 'storage backup');
    expect(new Set(backup.map((f) => f.reason))).toEqual(
      new Set(['list_storage_backups of site_docs answered no storage backup']),
    );
  });

  it('a call that fails is reported, never retried; the calls after it still go; exit 1', async () => {
    emu.control.addFault({ method: 'list_sites', status: 500, times: 3 });
    const { code, report } = await doctorJson(['site_bakery']);
    expect(code).toBe(1);
    expect(report.exitCode).toBe(1);
    expect(log().filter((e) => e.method === 'list_sites')).toHaveLength(1);
    expect(log().filter((e) => e.counted).length).toBeLessThanOrEqual(5);
    const sites = report.calls.find((c) => c.method === 'list_sites');
    expect(sites).toMatchObject({ outcome: 'failed', status: 500, exitCode: 1 });
    expect(report.fields.filter((f) => f.resource === 'site record').every((f) => f.status === 'not checked')).toBe(
      true,
    );
    expect(report.fields.find((f) => f.resource === 'site record')?.reason).toMatch(/^list_sites could not be read: /);
    expect(report.calls.find((c) => c.method === 'list_messages')?.outcome).toBe('read');
  });

  it('the minute’s budget spent on a call: waited out as every command does, then reported; exit 7, and 1 wins over it', async () => {
    emu.control.addFault({ method: 'list_storage_backups', status: 429, times: 50 });
    const { code, report } = await doctorJson(['site_bakery']);
    expect(code, JSON.stringify(report.calls.map((c) => [c.method, c.outcome, c.status]))).toBe(7);
    expect(report.calls.find((c) => c.method === 'list_storage_backups')).toMatchObject({
      outcome: 'refused',
      status: 429,
      exitCode: 7,
    });
    // Each 429 carried Retry-After: waited out, a few times at most, as every command does.
    const tries = log().filter((e) => e.method === 'list_storage_backups').length;
    expect(tries).toBeGreaterThan(1);
    expect(tries).toBeLessThanOrEqual(6);
    expect(report.fields.find((f) => f.resource === 'storage backup')?.reason).toMatch(
      /^list_storage_backups could not be read: /,
    );
    emu.control.reset();
    emu.control.addFault({ method: 'list_storage_backups', status: 429, times: 50 });
    emu.control.addFault({ method: 'list_messages', status: 503, times: 50 });
    expect((await doctorJson(['site_bakery'])).code).toBe(1);
  });

  it('a run that does not exist (--job) is reported as refused; exit 1', async () => {
    const { code, report } = await doctorJson(['site_bakery', '--job', 'job_999999']);
    expect(code).toBe(1);
    expect(report.calls.find((c) => c.method === 'get_job')).toMatchObject({ outcome: 'refused', status: 404 });
    expect(report.fields.find((f) => f.resource === 'job event data')?.reason).toMatch(/^get_job could not be read: /);
  });

  it('a token without a scope: the report is printed, the refusal named, exit 4', async () => {
    const token = emu.control.createToken({ scopes: ['workspaces:read', 'chat:read'] });
    const r = await doctorJson([], { SITEBUILDER_TOKEN: token.token });
    expect(r.code).toBe(4);
    expect(r.report.calls.find((c) => c.method === 'list_sites')).toMatchObject({ outcome: 'refused', status: 403 });
    // Without a site, the site's calls are skipped, saying why; no more than five were counted.
    expect(r.report.calls.find((c) => c.method === 'list_messages')).toMatchObject({ outcome: 'skipped' });
    expect(log().filter((e) => e.counted).length).toBeLessThanOrEqual(5);
    // GET /v1/tools lists only what the token may use: the rest is not claimed missing.
    const notListed = r.report.methods.filter((m) => m.problem === 'not listed' && m.sources.includes('tools'));
    expect(notListed.length).toBeGreaterThan(0);
    expect(notListed.every((m) => m.tokenHasScope === false)).toBe(true);
  });

  it('a token the service does not take ends it as every command: exit 4, nothing else sent', async () => {
    const r = await cli(['doctor'], { env: { SITEBUILDER_TOKEN: DEMO_TOKENS.expired } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(log().map((e) => e.path)).toEqual(['/v1/token']);
  });

  it('bad input and no token: exit 2 or 4, nothing sent', async () => {
    for (const argv of [['--job', ''], ['--workspace', 'ws demo'], ['site\u0007docs'], ['a', 'b']]) {
      const r = await cli(['doctor', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
    }
    const none = await cli(['doctor'], { env: { SITEBUILDER_TOKEN: '' } });
    expect(none.code).toBe(4);
    expect(log()).toEqual([]);
  });

  it('piped: tab-separated rows naming their kind, one field row per field of the catalogue', async () => {
    const r = await cli(['doctor']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    const kinds = new Set(rows.map((c) => c[0]));
    for (const k of kinds)
      expect(['service', 'call', 'field', 'method', 'argument', 'undescribed', 'summary']).toContain(k);
    const fields = rows.filter((c) => c[0] === 'field');
    expect(fields.map((c) => `${c[1]} ${c[2]}`)).toEqual(catalogueFields().map((f) => `${f.resource} ${f.field}`));
    for (const c of fields) {
      expect(c).toHaveLength(8);
      expect(['found', 'not found', 'not checked']).toContain(c[3]);
    }
    expect(rows.filter((c) => c[0] === 'call')).toHaveLength(10);
    expect(rows.at(-1)).toEqual(['summary', expect.any(String), expect.any(String), expect.any(String), '5', '5', '0']);
    expect(r.stdout).not.toMatch(/\u001b/);
    expect(r.stderr).toContain('sitebuilder doctor --json');
  });

  it.each([80, 60, 40])(
    'on a terminal of %i columns: tables and sentences fit, nothing is cut that must be copied',
    async (columns) => {
      const r = await cli(['doctor'], { tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      // A line wider than the terminal is one word that cannot be cut (an id, a path), alone on it.
      const wide = lines.filter((l) => displayWidth(l) > columns && l.trim().includes(' '));
      expect(wide, r.stdout).toEqual([]);
      // Nothing is cut: no value shortened with …, and every word of every value printed whole.
      expect(r.stdout).not.toContain('…');
      const { report } = await doctorJson();
      const words = new Set(r.stdout.split(/[\s,()]+/));
      const values = [
        ...report.fields.filter((f) => f.status !== 'not checked').flatMap((f) => [f.what, ...f.paths]),
        ...report.calls.flatMap((c) => [c.method, c.error ?? '']),
        ...Object.values(report.targets).filter((v) => v !== null),
      ];
      const cut = values.flatMap((v) => String(v).split(/[\s,()]+/)).filter((w) => w && !words.has(w));
      expect(cut, r.stdout).toEqual([]);
      expect(r.stdout).toContain('Fields sitebuilder reads: ');
      expect(r.stdout).toContain('Not checked:');
      expect(r.stdout).toMatch(/counted \(at most 5\)/);
    },
  );
});
