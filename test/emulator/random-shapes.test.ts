// The random shapes (`--shapes random:SEED`), the shape fuzzer, over raw HTTP. For several
// seeds, two emulators (default and random) are fed the same calls (random-twins.ts): every
// answer keeps its status, message and envelope, keeps what the reference states under its
// stated name, and loses nothing (every value of the default answer is somewhere in the random
// one: a time in another format, an id in another form, a word spelled otherwise); a run keeps
// its events, and all it said is noted as sent. random-choices.test.ts takes the choices one by one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPELLINGS } from '../../src/emulator/shapes/random/catalogue.js';
import { STATED_PATHS } from '../../src/emulator/shapes/random/stated.js';
import { anyTime, leaves, pairs, type Twins, twins } from './random-twins.js';

const SEEDS = [1, 2, 3, 4, 5, 6];
const isIso = (v: unknown) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT.*Z$/.test(v);
const ENVELOPE = ['success', 'message', 'data', 'code', 'version'];
/** Values that differ by nature: cursors (maybe numbers), and the restore plan's `confirm`, a hash over ids of other forms. */
const DERIVED = new Set(['nextCursor', 'nextToken', 'oldestCursor', 'confirm']);

/** A path of the default shapes' names resolved in a default answer ([] takes every element). */
function resolve(data: unknown, path: string): unknown[] {
  let at: unknown[] = [data];
  for (const seg of path.split('.')) {
    const key = seg.replace(/\[\]$/, '');
    at = at.flatMap((v) => {
      const next = key === '' ? v : (v as Record<string, unknown> | null)?.[key];
      if (next === undefined) return [];
      return seg.endsWith('[]') && Array.isArray(next) ? next : [next];
    });
  }
  return at;
}

/** The random answer is the default one reshaped: same status, envelope, stated names, and nothing lost. */
function expectReshaped(t: Twins, method: string, d: any, r: any): void {
  const where = `random:${t.seed} ${method}`;
  expect(r.status, `${where}: ${r.text.slice(0, 300)}`).toBe(d.status);
  for (const k of ENVELOPE) expect(r.body, where).toHaveProperty(k);
  expect(r.body.code, where).toBe(d.body.code);
  expect(r.body.message, where).toBe(t.translate(d.body.message));
  if ('count' in d.body) expect(r.body.count, where).toBe(d.body.count);
  const dd = d.body.data;
  const rd = r.body.data;
  const rPairs = pairs(rd);
  // What the reference names keeps its name and its value (an id maybe as a number).
  for (const path of STATED_PATHS[method] ?? []) {
    const key = path.split('.').at(-1)!.replace('[]', '');
    for (const v of resolve(dd, path)) {
      const want = t.translate(v);
      const found = rPairs.some(
        ([k, got]) =>
          k === key &&
          (typeof want === 'object' && want !== null
            ? typeof got === 'object'
            : DERIVED.has(key)
              ? typeof got === typeof want
              : got === want ||
                String(got) === String(want) ||
                (SPELLINGS[key]?.[String(want)] ?? []).includes(String(got)) ||
                (key === 'state' && method === 'get_job')),
      );
      expect(found, `${where}: ${path} = ${JSON.stringify(want)}`).toBe(true);
    }
  }
  // Nothing the default answer holds is lost.
  const rLeaves = leaves(method === 'get_job' ? { ...rd, events: [] } : rd);
  const values = new Set(rLeaves.map(([, v]) => String(v)));
  const times = rLeaves.map(([, v]) => anyTime(v)).filter((x): x is number => x !== undefined);
  for (const [k, v] of leaves(method === 'get_job' ? { ...dd, events: [] } : dd)) {
    if (typeof v === 'boolean' || DERIVED.has(k) || (method === 'get_job' && k === 'state')) continue;
    if (isIso(v)) {
      const ms = Date.parse(v as string);
      expect(
        times.some((x) => Math.abs(x - ms) < 1000),
        `${where}: the time ${k} ${v}`,
      ).toBe(true);
      continue;
    }
    const want = String(t.translate(v));
    const spelled = Object.values(SPELLINGS).flatMap((byValue) => byValue[String(v)] ?? []);
    expect(values.has(want) || spelled.some((s) => values.has(s)), `${where}: ${k} = ${want}`).toBe(true);
  }
}

/** A walk over the methods (arguments as the default side takes them; ids read from its answers). */
async function walk(t: Twins): Promise<Set<string>> {
  const seen = new Set<string>();
  let last: any;
  const call = async (method: string, args: Record<string, unknown>, more?: Record<string, unknown>) => {
    const { d, r } = await t.both(method, args, more);
    expectReshaped(t, method, d, r);
    seen.add(method);
    last = r.body.data;
    return d.body.data;
  };
  const P = 'site_portfolio';
  await call('list_workspaces', {});
  await call('list_sites', { workspaceId: 'ws_demo' });
  await call('create_site', { workspaceId: 'ws_demo', prompt: 'A site for a florist.' });
  const run = await call('send_message', { projectId: P, prompt: 'Add a gallery page, a team page and a faq page' });
  const q1 = await call('send_message', { projectId: P, prompt: 'Then a contact page' });
  const q2 = await call('send_message', { projectId: P, prompt: 'Then a pricing page' });
  t.advance(1_000);
  await call('get_job', { projectId: P, jobId: run.jobId, cursor: 0 });
  await call('list_queued_messages', { projectId: P });
  await call('edit_queued_message', {
    projectId: P,
    queueItemId: q1.queueItemId,
    prompt: 'Then a map',
    expectedVersion: 1,
  });
  await call('reorder_queued_message', { projectId: P, queueItemId: q2.queueItemId, position: 1 });
  await call('remove_queued_message', { projectId: P, queueItemId: q1.queueItemId });
  await call('cancel_job', { projectId: P, jobId: run.jobId });
  await call('resume_queue', { projectId: P });
  await call('list_messages', { projectId: 'site_bakery' });
  await call('upload_storage_file', { projectId: 'site_bakery', fileName: 'notes/a.txt', contentBase64: 'aGk=' });
  await call('publish_site', { projectId: 'site_bakery' });
  await call('get_publish_status', { projectId: 'site_bakery' });
  await call('get_publish_logs', { projectId: 'site_bakery' });
  t.advance(10_000);
  await call('list_deployments', { projectId: 'site_bakery' });
  await call('list_workspace_credit_activity', { workspaceId: 'ws_demo' });
  const backups = await call('list_backups', { projectId: 'site_bakery' });
  await call('restore_backup', { projectId: 'site_bakery', backupId: backups.items[1].BackupId });
  const code = await call('list_code_backups', { projectId: 'site_docs' });
  await call('restore_code_backup', { projectId: 'site_docs', codeBackupId: code.items[0].codeBackupId });
  const storage = await call('list_storage_backups', { projectId: 'site_bakery' });
  const weekly = storage.items.find((b: any) => b.label === 'Weekly backup').backupId;
  await call('browse_storage_backup', { projectId: 'site_bakery', backupId: weekly });
  const plan = await call('restore_storage_backup', { projectId: 'site_bakery', backupId: weekly, mode: 'full' });
  const started = await call(
    'restore_storage_backup',
    { projectId: 'site_bakery', backupId: weekly, mode: 'full', confirm: plan.confirm },
    { confirm: last.confirm },
  );
  await call('get_storage_restore_status', { projectId: 'site_bakery', restoreId: started.restore._id });
  await call('get_site_email_settings', { projectId: 'site_bakery' });
  await call('restart_site_email_domain_verification', { projectId: 'site_bakery', domainId: 'edom_bakery_news' });
  await call('list_site_cron_runs', { projectId: 'site_bakery' });
  await call('trigger_deploy_hook', { projectId: 'site_docs', hookId: 'hook_docs_ci' });
  await call('list_site_email_sends', { projectId: 'site_bakery' });
  await call('export_collection', { projectId: 'site_bakery', collectionId: 'col_menu' });
  return seen;
}

describe.each(SEEDS)('random:%i answers every method as the default shapes do, reshaped', (seed) => {
  let t: Twins;
  beforeAll(async () => {
    t = await twins(seed);
  });
  afterAll(() => t.close());

  it('keeps statuses, messages, the envelope and the stated names, and loses no value', async () => {
    const seen = await walk(t);
    expect(seen.size).toBeGreaterThan(30);
  });

  it('a run: the same events in order, stated kinds, ask_user exactly; every text, task and file noted as sent', async () => {
    t.shapes.sent.clear();
    for (const [prompt, mode] of [
      ['Add an about page, a contact page and a gallery page', 'build'],
      ['Remove the about page', 'build'],
      ['Add a menu page with prices', 'plan'],
      ['#ask', 'build'],
    ]) {
      const { d, r } = await t.both('send_message', { projectId: 'site_bakery', prompt, mode });
      t.advance(200_000);
      const read = await t.both('get_job', { projectId: 'site_bakery', jobId: d.body.data.jobId, cursor: 0 });
      expect(r.status).toBe(200);
      const [de, re] = [read.d.body.data.events, read.r.body.data.events];
      expect(re.map((e: any) => e.event)).toEqual(de.map((e: any) => e.event));
      expect(read.r.body.data.state).toBe(read.d.body.data.state);
      for (const [i, e] of de.entries()) {
        expect(typeof re[i].data).toBe('object');
        if (e.event === 'tool_call' && e.data.name === 'ask_user') {
          expect(re[i].data.name).toBe('ask_user');
          expect(re[i].data.input).toEqual(e.data.input);
        }
        const said = JSON.stringify(re[i].data);
        if (e.event === 'text') expect(said).toContain(JSON.stringify(e.data.text).slice(1, -1));
        if (e.event === 'file_changed' || e.event === 'file_deleted')
          expect(said).toContain(e.data.path.split('/').at(-1));
      }
      const sent = t.shapes.sent.items;
      for (const e of de) {
        if (e.event === 'text') expect(sent.some((s) => s.kind === 'text' && s.text === e.data.text)).toBe(true);
        if (e.event === 'file_changed')
          expect(sent.some((s) => s.kind === 'file' && s.text === e.data.path)).toBe(true);
        if (e.event === 'todos')
          for (const item of e.data.items)
            expect(sent.some((s) => s.kind === 'todo' && s.text === item.title)).toBe(true);
      }
    }
  });
});
