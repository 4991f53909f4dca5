// The shapes layer over raw HTTP: two emulators, default and alternate shapes, on the same fake
// time and fed the same calls, so their answers differ only by the shapes. Every method's
// answer is checked against the alternate table (src/emulator/shapes/alternate.ts): each key
// renamed, dropped, respelled or retimed as the table says, nothing else changed, extra
// fields added; then each flipped choice on its own (orders, numeric cursors, id forms, event
// data, publish without `url`, list_messages without jobId, refusals, argument names), what the
// reference states left exactly as it is, and the default shapes left as they were.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { idPattern, ShapesError, shapesFromEnv, startEmulator } from '../../src/emulator/index.js';
import {
  ALTERNATE_SEED_SITE,
  ARG_ALIASES,
  EVENT_DATA,
  METHOD_RULES,
  PUBLISH_STATUS,
} from '../../src/emulator/shapes/alternate.js';
import { renamesOf, type Rule } from '../../src/emulator/shapes/rules.js';
import { harness, type Harness, type RawAnswer } from './helpers.js';

const START = Date.UTC(2026, 10, 22, 12, 0, 0);
const clocks = { def: new FakeClock(START), alt: new FakeClock(START) };
let def: Harness;
let alt: Harness;
type Side = 'def' | 'alt';

beforeAll(async () => {
  def = await harness({ clock: clocks.def, shapes: 'default' });
  alt = await harness({ clock: clocks.alt, shapes: 'alternate' });
});
afterAll(async () => {
  await def.close();
  await alt.close();
});

const advance = (ms: number) => {
  clocks.def.advance(ms);
  clocks.alt.advance(ms);
};

/** The same call on both; args may depend on what each side answered before. */
async function both(method: string, args: Record<string, unknown> | ((s: Side) => Record<string, unknown>)) {
  const argsOf = (s: Side) => (typeof args === 'function' ? args(s) : args);
  const d = await def.call(method, argsOf('def'));
  const a = await alt.call(method, argsOf('alt'));
  return { d, a };
}

const isRecord = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);
const EXTRAS = ['__v', 'meta'];

/**
 * The alternate answer is the default one reshaped by the rule: keys renamed, dropped,
 * respelled and retimed as the table says, lists the same length (reversed where it says),
 * the extra fields added and nothing else. Rules with a `map` of their own are checked apart.
 */
function expectShaped(d: unknown, a: unknown, rule: Rule | undefined, where: string): void {
  if (Array.isArray(d)) {
    expect(Array.isArray(a), where).toBe(true);
    const list = a as unknown[];
    expect(list.length, where).toBe(d.length);
    if (rule?.each?.map) return;
    for (const [i, item] of d.entries())
      expectShaped(item, list[rule?.reverse ? d.length - 1 - i : i], rule?.each, `${where}[${i}]`);
    return;
  }
  if (!isRecord(d)) return;
  expect(isRecord(a), where).toBe(true);
  const alt = a as Record<string, any>;
  const expected = new Set<string>(EXTRAS);
  for (const [k, v] of Object.entries(d)) {
    if (rule?.drop?.includes(k)) {
      expect(alt, `${where}.${k} is dropped`).not.toHaveProperty(k);
      continue;
    }
    const name = rule?.rename?.[k] ?? k;
    expected.add(name);
    expect(alt, `${where}.${k} → ${name}`).toHaveProperty(name);
    if (name !== k && !Object.values(rule?.rename ?? {}).includes(k)) expect(alt, where).not.toHaveProperty(k);
    const got = alt[name];
    const spelled = rule?.values?.[k];
    if (spelled && typeof v === 'string' && v in spelled) expect(got, `${where}.${k}`).toBe(spelled[v]);
    else if (rule?.epochMs?.includes(k) && typeof v === 'string') expect(got, `${where}.${k}`).toBe(Date.parse(v));
    if (['nextCursor', 'nextToken', 'oldestCursor'].includes(k))
      expect(typeof got, `${where}.${k}`).toBe(v === null ? 'object' : 'number');
    if (!rule?.map) expectShaped(v, got, rule?.fields?.[k], `${where}.${name}`);
  }
  if (!rule?.map) expect(Object.keys(alt).sort(), where).toEqual([...expected].sort());
  expect(alt.__v, where).toBe(0);
  expect(d, where).not.toHaveProperty('__v');
}

function expectBothOk(d: RawAnswer, a: RawAnswer, method: string): void {
  expect(d.status, `${method}: ${d.text.slice(0, 300)}`).toBeLessThan(300);
  expect(a.status, `${method}: ${a.text.slice(0, 300)}`).toBe(d.status);
}

const checked = new Set<string>();
async function compare(method: string, args: Parameters<typeof both>[1]) {
  const { d, a } = await both(method, args);
  expectBothOk(d, a, method);
  expectShaped(d.body.data, a.body.data, METHOD_RULES[method], method);
  checked.add(method);
  return { d: d.body.data, a: a.body.data };
}

describe('every method answers in the alternate shapes as the table says', () => {
  it('walks every method of the table against both shapes', async () => {
    const ids: Record<Side, Record<string, any>> = { def: {}, alt: {} };
    const keep = (r: { d: any; a: any }, name: string, pick: (data: any) => unknown) => {
      ids.def[name] = pick(r.d);
      ids.alt[name] = pick(r.a);
    };
    const items = (data: any, s: Side, method: string) =>
      Array.isArray(data) ? data : data[s === 'def' ? 'items' : (METHOD_RULES[method].rename?.items ?? 'items')];

    await compare('list_workspaces', {});
    await compare('list_sites', { workspaceId: 'ws_free' });
    await compare('create_site', { workspaceId: 'ws_demo', prompt: 'A site for a florist.' });
    // A run, two messages queued behind it, then the queue methods.
    keep(
      await compare('send_message', { projectId: 'site_portfolio', prompt: 'Add a gallery page' }),
      'job',
      (d) => d.jobId,
    );
    keep(
      await compare('send_message', { projectId: 'site_portfolio', prompt: 'Then a team page' }),
      'q1',
      (d) => d.queueItemId,
    );
    keep(
      await compare('send_message', { projectId: 'site_portfolio', prompt: 'Then a faq page' }),
      'q2',
      (d) => d.queueItemId,
    );
    advance(1_000);
    await compare('get_job', (s) => ({ projectId: 'site_portfolio', jobId: ids[s].job, cursor: 0 }));
    await compare('list_queued_messages', { projectId: 'site_portfolio' });
    await compare('edit_queued_message', (s) => ({
      projectId: 'site_portfolio',
      queueItemId: ids[s].q1,
      prompt: 'Then a team page with photos',
      expectedVersion: 1,
    }));
    await compare('reorder_queued_message', (s) => ({
      projectId: 'site_portfolio',
      queueItemId: ids[s].q2,
      position: 1,
    }));
    await compare('remove_queued_message', (s) => ({ projectId: 'site_portfolio', queueItemId: ids[s].q1 }));
    await compare('cancel_job', { projectId: 'site_portfolio' });
    await compare('resume_queue', { projectId: 'site_portfolio' });
    await compare('list_messages', { projectId: 'site_bakery' });

    await compare('upload_storage_file', { projectId: 'site_bakery', fileName: 'notes/a.txt', contentBase64: 'aGk=' });
    await compare('get_publish_status', { projectId: 'site_blog' });
    await compare('publish_site', { projectId: 'site_bakery' });
    await compare('get_publish_status', { projectId: 'site_bakery' });
    await compare('get_publish_logs', { projectId: 'site_bakery' });
    advance(10_000);
    await compare('list_deployments', { projectId: 'site_bakery' });

    await compare('list_templates', {});
    await compare('list_workspace_members', { workspaceId: 'ws_demo' });
    await compare('list_workspace_credit_activity', { workspaceId: 'ws_demo' });

    // Site backup ids have forms of their own, the same in both shapes.
    const backups = await compare('list_backups', { projectId: 'site_bakery' });
    const older = items(backups.d, 'def', 'list_backups')[1].BackupId;
    expect(items(backups.a, 'alt', 'list_backups')[0].BackupId).toBe(older);
    await compare('restore_backup', { projectId: 'site_bakery', backupId: older });
    const code = await compare('list_code_backups', { projectId: 'site_docs' });
    ids.def.code = items(code.d, 'def', 'list_code_backups')[0].codeBackupId;
    ids.alt.code = items(code.a, 'alt', 'list_code_backups').at(-1).codeBackupId;
    await compare('restore_code_backup', (s) => ({ projectId: 'site_docs', codeBackupId: ids[s].code }));

    const storage = await compare('list_storage_backups', { projectId: 'site_bakery' });
    for (const s of ['def', 'alt'] as const) {
      const list = items(storage[s === 'def' ? 'd' : 'a'], s, 'list_storage_backups');
      ids[s].weekly = list.find((b: any) => (b.label ?? b.name) === 'Weekly backup').backupId;
    }
    await compare('browse_storage_backup', (s) => ({ projectId: 'site_bakery', backupId: ids[s].weekly }));
    await compare('read_storage_backup_file', (s) => ({
      projectId: 'site_bakery',
      backupId: ids[s].weekly,
      path: 'images/hero.jpg',
    }));
    const plan = await compare('restore_storage_backup', (s) => ({
      projectId: 'site_bakery',
      backupId: ids[s].weekly,
      mode: 'full',
    }));
    const started = await compare('restore_storage_backup', (s) => ({
      projectId: 'site_bakery',
      backupId: ids[s].weekly,
      mode: 'full',
      confirm: (s === 'def' ? plan.d : plan.a).confirm,
    }));
    await compare('get_storage_restore_status', (s) => ({
      projectId: 'site_bakery',
      restoreId: (s === 'def' ? started.d : started.a).restore._id,
    }));
    advance(60_000);
    keep(await compare('create_storage_backup', { projectId: 'site_bakery' }), 'created', (d) => d.backupId);
    await compare('clear_storage_backups', (s) => ({ projectId: 'site_bakery', backupIds: [ids[s].created] }));
    await compare('list_database_backups', { projectId: 'site_bakery' });
    await compare('list_storage_files', { projectId: 'site_bakery' });

    await compare('get_site_email_settings', { projectId: 'site_bakery' });
    await compare('restart_site_email_domain_verification', { projectId: 'site_bakery', domainId: 'edom_bakery_news' });
    await compare('list_site_email_sends', { projectId: 'site_bakery' });
    await compare('list_site_email_engagement', { projectId: 'site_bakery' });
    await compare('list_site_email_suppressions', { projectId: 'site_bakery' });
    await compare('run_site_cron', { projectId: 'site_bakery', cronId: 'cron_bakery_digest' });
    await compare('list_site_cron_runs', { projectId: 'site_bakery' });
    await compare('trigger_deploy_hook', { projectId: 'site_docs', hookId: 'hook_docs_ci' });
    await compare('list_deploy_hook_calls', { projectId: 'site_bakery' });
    await compare('list_webhook_deliveries', { projectId: 'site_bakery' });
    await compare('export_collection', { projectId: 'site_bakery', collectionId: 'col_menu' });
    await compare('list_rows', { projectId: 'site_bakery', collectionId: 'col_menu' });
    await compare('set_secret', { projectId: 'site_bakery', name: 'API_KEY', value: 'x' });
    await compare('get_site_analytics', { projectId: 'site_bakery' });
    await compare('get_site_analytics_pages', { projectId: 'site_bakery' });
    await compare('get_site_analytics_referrers', { projectId: 'site_bakery' });

    for (const path of ['/v1/token', '/v1/tools']) {
      const [d, a] = [await def.get(path), await alt.get(path)];
      expectBothOk(d, a, path);
      expectShaped(d.body.data, a.body.data, METHOD_RULES[`GET ${path}`], path);
      checked.add(`GET ${path}`);
    }
    expect(Object.keys(METHOD_RULES).filter((m) => !checked.has(m))).toEqual([]);
  });
});

describe('each flipped choice', () => {
  it('ids the emulator makes up take other forms; the seeded ones stay, and one seeded site has another form', async () => {
    const { d, a } = await both('send_message', { projectId: 'site_recipes', prompt: 'Add a spring page' });
    expect(d.body.data.jobId).toMatch(/^job_\d{6}$/);
    expect(a.body.data.jobId).toMatch(new RegExp(`^${idPattern('job', 'alternate')}$`));
    expect(a.headers['x-request-id']).toMatch(new RegExp(`^${idPattern('req', 'alternate')}$`));
    expect(d.headers['x-request-id']).toMatch(new RegExp(`^${idPattern('req', 'default')}$`));
    const queued = await both('send_message', { projectId: 'site_recipes', prompt: 'And a summer page' });
    expect(queued.a.body.data.queueItemId).toMatch(new RegExp(`^${idPattern('qmsg', 'alternate')}$`));
    expect(queued.d.body.data.queueItemId).toMatch(/^qmsg_\d{6}$/);
    const created = await both('create_site', { workspaceId: 'ws_demo', prompt: 'A site for a cobbler.' });
    expect(created.d.body.data.site._id).toMatch(/^site_\d{6}$/);
    expect(created.a.body.data.project._id).toMatch(new RegExp(`^${idPattern('site', 'alternate')}$`));

    const sites = async (h: Harness) => (await h.call('list_sites', { workspaceId: 'ws_demo' })).body.data;
    const altIds = (await sites(alt)).map((s: any) => s._id);
    expect(altIds).toContain('site_bakery');
    expect(altIds).toContain(ALTERNATE_SEED_SITE._id);
    expect((await sites(def)).map((s: any) => s._id)).not.toContain(ALTERNATE_SEED_SITE._id);
    // The seeded site works like the others: it has a history and takes a message.
    const harbour = await alt.call('send_message', {
      projectId: ALTERNATE_SEED_SITE._id,
      prompt: 'Add an events page',
    });
    expect(harbour.status).toBe(200);
  });

  it('list_messages: oldest first inside a page, no jobId, numeric cursors taken back as numbers only', async () => {
    const read = async (h: Harness, cursor?: unknown) =>
      (
        await h.call('list_messages', {
          projectId: 'site_bakery',
          limit: 2,
          ...(cursor === undefined ? {} : { cursor }),
        })
      ).body;
    const d = await read(def);
    const a = await read(alt);
    expect(d.data.items.map((m: any) => m.createdAt)).toEqual(
      [...a.data.messages.map((m: any) => m.createdAt)].reverse(),
    );
    expect(a.data.messages[0].createdAt <= a.data.messages[1].createdAt).toBe(true);
    expect(d.data.items.every((m: any) => typeof m.jobId === 'string')).toBe(true);
    expect(a.data.messages.some((m: any) => 'jobId' in m)).toBe(false);
    expect(typeof d.data.oldestCursor).toBe('string');
    expect(Number.isInteger(a.data.oldestCursor)).toBe(true);
    // Walking back to the first message gives the same history in both.
    const walk = async (h: Harness, key: string) => {
      const all: string[] = [];
      let page = await read(h);
      for (;;) {
        all.push(...page.data[key].map((m: any) => m.createdAt));
        if (!page.data.hasMore) return all.sort();
        page = await read(h, page.data.oldestCursor);
        expect(page.success).toBe(true);
      }
    };
    expect(await walk(alt, 'messages')).toEqual(await walk(def, 'items'));
    // A cursor sent back otherwise than it came is refused, as a typed argument of the service would be.
    const asText = await alt.call('list_messages', { projectId: 'site_bakery', cursor: String(a.data.oldestCursor) });
    expect(asText.status).toBe(400);
    expect(asText.body.message).toMatch(/`cursor` must be a number/);
    const unknown = await alt.call('list_messages', { projectId: 'site_bakery', cursor: 99_999_999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.code).toBe('BAD_CURSOR');
  });

  it('nextCursor and nextToken are numbers, bound to the other arguments, and page to the end', async () => {
    for (const h of [def, alt])
      for (let i = 0; i < 60; i++)
        await h.control('POST', 'sites/site_blog/storage-files', { path: `f/${i}.txt`, content: 'x' });
    for (const [method, args, next, arg] of [
      ['list_site_cron_runs', { projectId: 'site_bakery' }, 'nextCursor', 'cursor'],
      ['list_site_email_sends', { projectId: 'site_bakery', limit: 7 }, 'nextCursor', 'cursor'],
      ['list_storage_files', { projectId: 'site_blog' }, 'nextToken', 'token'],
    ] as const) {
      const counts: number[] = [];
      for (const h of [def, alt]) {
        let n = 0;
        let page = (await h.call(method, args)).body;
        for (let guard = 0; guard < 50; guard++) {
          n += (Array.isArray(page.data) ? page.data : Object.values(page.data).find(Array.isArray)).length;
          const cursor = page.data[next];
          if (cursor === null) break;
          expect(typeof cursor).toBe(h === alt ? 'number' : 'string');
          page = (await h.call(method, { ...args, [arg]: cursor })).body;
          expect(page.success, method).toBe(true);
        }
        counts.push(n);
      }
      expect(counts[1], method).toBe(counts[0]);
    }
    const first = (await alt.call('list_site_cron_runs', { projectId: 'site_bakery' })).body.data.nextCursor;
    const other = await alt.call('list_site_cron_runs', {
      projectId: 'site_bakery',
      cronId: 'cron_bakery_stock',
      cursor: first,
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/other arguments/);
  });

  it('listings whose order is not stated come in the other order inside a page', async () => {
    const d = (await def.call('list_backups', { projectId: 'site_bakery' })).body.data.items;
    const a = (await alt.call('list_backups', { projectId: 'site_bakery' })).body.data.backups;
    expect(a.map((b: any) => b.name)).toEqual(d.map((b: any) => b.label).reverse());
    expect(d.length).toBeGreaterThan(1);
    // The queue's order is stated (oldest first): it stays.
    expect(METHOD_RULES.list_queued_messages.fields?.items?.reverse).toBeUndefined();
  });

  it('publish answers carry the address in publicUrl, never url; other statuses than ready are spelled otherwise', async () => {
    advance(10_000); // any publish of an earlier test is over
    const { d, a } = await both('publish_site', { projectId: 'site_docs' });
    expect(d.body.data.url).toMatch(/\/sites\/site_docs\/$/);
    expect(a.body.data).not.toHaveProperty('url');
    expect(a.body.data.publicUrl).toBe(d.body.data.url.replace(def.emu.baseUrl, alt.emu.baseUrl));
    expect(a.body.data.status).toBe(PUBLISH_STATUS[d.body.data.status as keyof typeof PUBLISH_STATUS]);
    expect(a.body.data.running).toBe(true);
    advance(10_000);
    const done = await both('get_publish_status', { projectId: 'site_docs' });
    expect(done.a.body.data).toMatchObject({ running: false, status: 'ready' });
    expect(done.d.body.data).toMatchObject({ running: false, status: 'ready' });
  });

  it('event data takes other keys, but ask_user stays exactly as the reference states it', async () => {
    const run = async (h: Harness, prompt: string, mode = 'build') => {
      const sent = await h.call('send_message', { projectId: 'site_shop', prompt, mode });
      expect(sent.status, sent.text).toBe(200);
      advance(200_000);
      return (await h.call('get_job', { projectId: 'site_shop', jobId: sent.body.data.jobId, cursor: 0 })).body.data;
    };
    await def.control('POST', 'workspaces/ws_broke', { credits: 100 });
    await alt.control('POST', 'workspaces/ws_broke', { credits: 100 });
    const pairs: Array<[any, any]> = [];
    for (const [prompt, mode] of [
      ['Add an about page and a contact page', 'plan'],
      ['Approve the plan and build it.', 'build'],
      ['Remove the about page', 'build'],
      ['Rework the products page #fail', 'build'],
      ['#ask', 'build'],
    ]) {
      const [d, a] = [await run(def, prompt, mode), await run(alt, prompt, mode)];
      expect(a.events).toHaveLength(d.events.length);
      expect(a.cursor).toBe(d.cursor);
      expect(Number.isInteger(a.cursor)).toBe(true);
      // The job's stated fields keep their names.
      for (const k of ['jobId', 'state', 'cursor', 'events', 'creditsCharged', 'reset', 'error'])
        expect(a).toHaveProperty(k);
      for (const [i, e] of d.events.entries()) pairs.push([e, a.events[i]]);
      if (d.error)
        expect(a.error).toEqual({ type: d.error.code, detail: d.error.message, __v: 0, meta: { revision: 1 } });
    }
    const kinds = new Set<string>();
    const todoStatuses: string[] = [];
    for (const [d, a] of pairs) {
      expect(a.event).toBe(d.event);
      expect(Number.isInteger(a.seq)).toBe(true);
      if (d.event === 'tool_call' && d.data.name === 'ask_user') {
        expect(a.data).toEqual(d.data);
        kinds.add('ask_user');
        continue;
      }
      kinds.add(d.event);
      const rule = EVENT_DATA[d.event];
      for (const [from, to] of Object.entries(rule.rename ?? {})) {
        if (!(from in d.data)) continue;
        expect(a.data, `${d.event}.${from}`).toHaveProperty(to);
        if (from !== to) expect(a.data, d.event).not.toHaveProperty(from);
      }
      if (d.event === 'tool_result') expect(a.data.isError).toBe(d.data.ok === false);
      if (d.event === 'todos') todoStatuses.push(...a.data.todos.map((t: any) => t.status));
    }
    expect([...kinds].sort()).toEqual(['ask_user', ...Object.keys(EVENT_DATA)].sort());
    expect(todoStatuses).toContain('completed');
    expect(todoStatuses).not.toContain('done');
  });

  it('a refusal keeps its status, message and reason; chat error codes are spelled in upper case', async () => {
    await def.control('POST', 'workspaces/ws_broke', { credits: 0 });
    await alt.control('POST', 'workspaces/ws_broke', { credits: 0 });
    const { d, a } = await both('send_message', { projectId: 'site_shop', prompt: 'x' });
    expect(d.status).toBe(402);
    expect(a.status).toBe(402);
    expect(a.body.message).toBe(d.body.message);
    expect(a.body.data).toMatchObject({ reason: d.body.data.reason, code: d.body.data.code.toUpperCase() });
  });

  it('every envelope carries requestId and servedAt beside the stated fields; a replay answers the first one again', async () => {
    const a = await alt.call('list_templates', {});
    expect(a.body).toMatchObject({ success: true, code: 200, version: '1.0.0', requestId: a.headers['x-request-id'] });
    expect(typeof a.body.servedAt).toBe('string');
    const refused = await alt.call('no_such_method', {});
    expect(refused.body.requestId).toBe(refused.headers['x-request-id']);
    const key = { 'idempotency-key': 'shapes-replay-1' };
    const first = await alt.call('set_secret', { projectId: 'site_bakery', name: 'K', value: 'v' }, { headers: key });
    const again = await alt.call('set_secret', { projectId: 'site_bakery', name: 'K', value: 'v' }, { headers: key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('takes other names for arguments the reference does not show, besides ours', async () => {
    const [[alias, ours]] = Object.entries(ARG_ALIASES.upload_storage_file);
    expect(ours).toBe('fileName');
    const args = { projectId: 'site_bakery', [alias]: 'alias/a.txt', content: 'aGk=' };
    expect((await alt.call('upload_storage_file', args)).status).toBe(200);
    expect((await def.call('upload_storage_file', args)).status).toBe(400);
    const mine = { projectId: 'site_bakery', fileName: 'alias/b.txt', contentBase64: 'aGk=' };
    expect((await alt.call('upload_storage_file', mine)).status).toBe(200);
  });
});

describe('the default shapes and the switch', () => {
  it('the default shapes add nothing and tell their name; the control API says which shapes answer', async () => {
    const d = await def.call('list_templates', {});
    expect(Object.keys(d.body)).toEqual(['success', 'message', 'data', 'code', 'version', 'count']);
    expect(d.body.data[0]).toEqual({ _id: 'tpl_bakery', name: 'Neighbourhood bakery', category: 'food' });
    expect((await def.control('GET', 'shapes')).body.data).toEqual({ shapes: 'default' });
    expect((await alt.control('GET', 'shapes')).body.data).toEqual({ shapes: 'alternate' });
    expect(def.emu.shapes).toBe('default');
  });

  it('SITEBUILDER_EMULATOR_SHAPES is the default of startEmulator; a bad value is refused', async () => {
    expect(shapesFromEnv({})).toBe('default');
    expect(shapesFromEnv({ SITEBUILDER_EMULATOR_SHAPES: 'alternate' })).toBe('alternate');
    expect(() => shapesFromEnv({ SITEBUILDER_EMULATOR_SHAPES: 'odd' })).toThrow(ShapesError);
    const saved = process.env.SITEBUILDER_EMULATOR_SHAPES;
    process.env.SITEBUILDER_EMULATOR_SHAPES = 'alternate';
    try {
      const emu = await startEmulator({ clock: new FakeClock(START) });
      expect(emu.shapes).toBe('alternate');
      await emu.close();
      const pinned = await startEmulator({ clock: new FakeClock(START), shapes: 'default' });
      expect(pinned.shapes).toBe('default');
      await pinned.close();
      process.env.SITEBUILDER_EMULATOR_SHAPES = 'odd';
      await expect(startEmulator({ clock: new FakeClock(START) })).rejects.toThrow(/SITEBUILDER_EMULATOR_SHAPES/);
    } finally {
      if (saved === undefined) delete process.env.SITEBUILDER_EMULATOR_SHAPES;
      else process.env.SITEBUILDER_EMULATOR_SHAPES = saved;
    }
  });

  it('docs/emulator.md names every alternate choice of the table', () => {
    const doc = readFileSync(new URL('../../docs/emulator.md', import.meta.url), 'utf8');
    const pairs = [
      ...Object.values(METHOD_RULES).flatMap((r) => renamesOf(r)),
      ...Object.values(EVENT_DATA).flatMap((r) => renamesOf(r)),
    ];
    const missing = [...new Set(pairs.map(([from, to]) => `\`${from}\` → \`${to}\``))].filter((p) => !doc.includes(p));
    expect(missing).toEqual([]);
  });
});
