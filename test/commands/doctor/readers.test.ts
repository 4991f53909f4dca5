// doctor's readers of the service's description (src/service/description.ts), their comparison
// with the method registry (commands/doctor/compare.ts), an answer's shape (skeleton.ts), its choice
// of a run against a scripted service, and the table of its calls in docs/real-service.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { methodInfo, METHOD_INDEX_NAMES } from '../../../src/api/method-index.js';
import { FakeClock } from '../../../src/clock.js';
import { doctor } from '../../../src/commands/doctor/index.js';
import { PLAN } from '../../../src/commands/doctor/plan.js';
import type { DoctorReport } from '../../../src/commands/doctor/report.js';
import { rememberRun, runsScope } from '../../../src/config/runs.js';
import { ConfigStore } from '../../../src/config/store.js';
import { type Description, openApiDescription, toolsDescription } from '../../../src/service/description.js';
import {
  argumentFindings,
  compareArguments,
  methodFindings,
  undescribed,
} from '../../../src/commands/doctor/compare.js';
import { skeleton } from '../../../src/service/skeleton.js';
import { CALL_KEYS, FIELD_KEYS, PART_KEYS, REPORT_KEYS, TARGET_KEYS } from '../../helpers/doctor-report.js';
import { run, tempConfigDir } from '../../helpers/run.js';
import { envelope, type ScriptServer, startScriptServer } from '../../helpers/script-server.js';

const ROOT = join(import.meta.dirname, '../../..');

describe('the service’s description, beside the registry', () => {
  it('reads an OpenAPI document: each method’s arguments ($ref, allOf), and whether it describes its answer', () => {
    const doc = {
      openapi: '3.1.0',
      paths: {
        '/v1/list_sites': {
          post: {
            requestBody: { $ref: '#/components/requestBodies/Sites' },
            responses: {
              '200': {
                content: { 'application/json': { schema: { properties: { data: { type: 'array' } } } } },
              },
            },
          },
        },
        '/v1/get_job': { post: { responses: { '200': { $ref: '#/components/responses/Loop' } } } },
        '/v1/{method}': { post: {} },
        '/v1/token': { get: { responses: { '200': { description: 'the token' } } } },
      },
      components: {
        requestBodies: {
          Sites: { content: { 'application/json': { schema: { $ref: '#/components/schemas/SitesArgs' } } } },
        },
        responses: { Loop: { $ref: '#/components/responses/Loop' } },
        schemas: {
          SitesArgs: {
            allOf: [
              { properties: { workspaceId: { type: 'string' } }, required: ['workspaceId'] },
              { $ref: '#/components/schemas/Offset' },
            ],
          },
          Offset: { properties: { offset: { type: 'integer' } } },
        },
      },
    };
    const d = openApiDescription(doc);
    expect(d.methods.get('list_sites')).toEqual({
      args: { properties: { workspaceId: { type: 'string' }, offset: { type: 'integer' } }, required: ['workspaceId'] },
      answer: true,
    });
    // A reference that loops ends; a method without a body gives no arguments.
    expect(d.methods.get('get_job')).toEqual({ args: undefined, answer: false });
    expect(d.methods.get('GET /v1/token')).toEqual({ answer: false });
    expect(d.unread).toEqual(["/v1/{method}, not one method's address"]);
    expect(openApiDescription({ openapi: '3.1.0' }).unread).toEqual(['no `paths`']);
  });

  it('reads the tools: names and argument schemas under the names the model tries', () => {
    const d = toolsDescription([
      { name: 'list_sites', inputSchema: { properties: { workspaceId: { type: 'string' } }, required: [] } },
      { method: 'get_job', input_schema: { properties: { jobId: { type: 'string' } } } },
      { name: 'brand_new', parameters: { type: 'object' }, outputSchema: { type: 'object' } },
      { title: 'a tool without a name' },
    ]);
    expect([...d.methods.keys()]).toEqual(['list_sites', 'get_job', 'brand_new']);
    expect(d.methods.get('get_job')?.args?.properties).toEqual({ jobId: { type: 'string' } });
    expect(d.methods.get('brand_new')).toEqual({ args: undefined, answer: true });
    expect(d.unread).toEqual(['1 tool whose name sitebuilder cannot read']);
    expect(toolsDescription({ a: [], b: [] }).unread[0]).toMatch(/^data that holds 2 lists/);
  });

  it('finds the arguments a description contradicts: names, required or optional, types, allowed values', () => {
    const send = methodInfo('send_message')!;
    const findings = compareArguments(
      send,
      {
        properties: {
          prompt: { type: 'integer' },
          mode: { type: 'string', enum: ['build', 'plan', 'ask'] },
          extra: { type: 'boolean' },
        },
        required: ['prompt', 'mode', 'extra'],
      },
      'openapi',
    );
    expect(findings.map((f) => [f.argument, f.problem, f.registry, f.service, f.stated])).toEqual([
      ['projectId', 'not described', 'required, string', null, true],
      ['prompt', 'type', 'string', 'integer', true],
      ['mode', 'required', 'optional', 'required', true],
      ['mode', 'values', 'build, plan', 'ask, build, plan', true],
      ['extra', 'unknown', null, 'required, boolean', false],
    ]);
    // An integer is a number; a method as the registry has it contradicts nothing.
    const job = methodInfo('get_job')!;
    const same = {
      properties: { ...job.schema.properties, cursor: { type: 'number' } },
      required: ['projectId', 'jobId'],
    };
    expect(compareArguments(job, same as never, 'tools')).toEqual([]);
    // The same finding from both descriptions is one, naming both.
    const both: Description[] = (['tools', 'openapi'] as const).map((source) => ({
      source,
      methods: new Map([
        [
          'cancel_job',
          { args: { properties: { projectId: { type: 'string' } }, required: ['projectId'] }, answer: false },
        ],
      ]),
      unread: [],
    }));
    expect(argumentFindings(both)).toEqual([
      expect.objectContaining({
        method: 'cancel_job',
        argument: 'jobId',
        problem: 'not described',
        sources: ['tools', 'openapi'],
      }),
      expect.objectContaining({
        method: 'cancel_job',
        argument: 'clearSession',
        problem: 'not described',
        sources: ['tools', 'openapi'],
      }),
    ]);
  });

  it('lists the methods one side knows and the other does not; GET /v1/tools only as far as the token’s scopes reach, and nothing from a list it cannot read', () => {
    const all = (extra: string[], without: string) =>
      new Map([...METHOD_INDEX_NAMES.filter((m) => m !== without), ...extra].map((m) => [m, { answer: false }]));
    const tools: Description = { source: 'tools', methods: all(['brand_new'], 'get_job'), unread: [] };
    const openapi: Description = { source: 'openapi', methods: all([], 'get_job'), unread: [] };
    expect(methodFindings([tools, openapi], ['sites:read'])).toEqual([
      { method: 'brand_new', problem: 'unknown', sources: ['tools'], scope: null, tokenHasScope: null },
      { method: 'get_job', problem: 'not listed', sources: ['tools'], scope: 'chat:read', tokenHasScope: false },
      { method: 'get_job', problem: 'not listed', sources: ['openapi'], scope: 'chat:read', tokenHasScope: null },
    ]);
    expect(methodFindings([tools], ['chat:read'])[1]).toMatchObject({ method: 'get_job', tokenHasScope: true });
    // A list with a tool it cannot read as a method claims no method missing.
    expect(methodFindings([{ ...tools, unread: ['1 tool whose name sitebuilder cannot read'] }], undefined)).toEqual([
      { method: 'brand_new', problem: 'unknown', sources: ['tools'], scope: null, tokenHasScope: null },
    ]);
  });

  it('says what the description does not describe: the answers the CLI reads, and arguments', () => {
    const openapi: Description = {
      source: 'openapi',
      methods: new Map([
        ['list_sites', { args: { properties: {}, required: [] }, answer: true }],
        ['get_job', { answer: false }],
      ]),
      unread: [],
    };
    expect(undescribed([openapi], ['list_sites', 'get_job', 'list_backups'])).toEqual([
      { what: 'answer', method: 'get_job', sources: ['openapi'] },
      { what: 'answer', method: 'list_backups', sources: [] },
      { what: 'arguments', method: 'get_job', sources: ['openapi'] },
    ]);
  });

  it('an answer’s shape keeps its keys and the types of its values, never a value', () => {
    const shape = skeleton({
      items: [
        { _id: 'site_secret', name: 'Secret Bakery', count: 3 },
        { _id: 'site_2', name: null, url: 'https://secret.example/' },
      ],
      events: [
        { event: 'text', data: { text: 'private words' } },
        { event: 'todos', data: { items: [{ title: 'a task', done: true }] } },
        { event: 'text', data: { delta: 'more' } },
      ],
      byPath: { 'index.html': 1, 'about/us.html': 2 },
    });
    expect(shape).toEqual({
      items: [{ _id: 'string', name: 'null | string', count: 'number', url: 'string' }],
      events: [
        { event: 'text', data: { text: 'string', delta: 'string' } },
        { event: 'todos', data: { items: [{ title: 'string', done: 'boolean' }] } },
      ],
      byPath: { '…': '2 keys' },
    });
    expect(JSON.stringify(shape)).not.toMatch(/secret|Secret|private|task|index/);
  });
});

describe('the run doctor reads, against a scripted service', () => {
  let server: ScriptServer | undefined;
  afterEach(() => server?.close());

  const answers: Record<string, unknown> = {
    '/v1/token': envelope({ name: 't', scopes: ['workspaces:read', 'sites:read', 'chat:read'] }),
    '/v1/tools': envelope([]),
    '/v1/openapi.json': envelope({ openapi: '3.1.0', paths: {} }),
    '/v1/list_workspaces': envelope([{ _id: 'ws_1' }]),
    '/v1/list_sites': envelope([{ _id: 's_0' }, { _id: 's_1' }], 200, 'ok', { count: 2 }),
    '/v1/list_messages': envelope({ items: [{ words: 'no run named' }], hasMore: false }),
    '/v1/get_job': envelope({ state: 'succeeded', events: [], cursor: 0, reset: false, creditsCharged: 0 }),
  };
  /** `remember`: runs.json is kept per address, so what this machine saw is written once the server is up. */
  const doctor = async (configDir: string, remember?: (baseUrl: string) => Promise<void>) => {
    server = await startScriptServer();
    await remember?.(server.baseUrl);
    server.answerFor = (req) => ({ body: answers[req.url] ?? envelope({ items: [] }) });
    const env = { SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: 'sbt_scripted_0123456789' };
    const r = await run(['doctor', '--json'], { env, configDir, clock: new FakeClock() });
    return { ...r, report: JSON.parse(r.stdout) as DoctorReport, sent: server.requests.map((q) => q.url) };
  };

  it('a run this machine followed is read when the history names none (its site first); with none, get_job gives its turn', async () => {
    const none = await doctor(tempConfigDir());
    expect(none.code, none.stderr).toBe(0);
    expect(none.report.calls.find((c) => c.method === 'get_job')).toMatchObject({
      outcome: 'skipped',
      error:
        "no record of s_0's history names a run sitebuilder can read, and this machine followed none of its runs; name one with --job",
    });
    expect(none.sent.filter((u) => !u.startsWith('/v1/openapi') && !u.startsWith('/v1/to'))).toEqual([
      '/v1/list_workspaces',
      '/v1/list_sites',
      '/v1/list_messages',
      '/v1/list_storage_backups',
      '/v1/get_site_email_settings',
    ]);

    const dir = tempConfigDir();
    const seen = await doctor(dir, (baseUrl) =>
      rememberRun(new ConfigStore(dir), runsScope('default', baseUrl), 's_1', { jobId: 'job_seen', startedAt: 1 }),
    );
    expect(seen.code, seen.stderr).toBe(0);
    // The site whose run this machine followed, rather than the first listed.
    expect(seen.report.targets).toMatchObject({
      site: 's_1',
      siteFrom: 'a site of ws_1 this machine followed a run of',
      run: 'job_seen',
      runFrom: 'the newest run this machine followed',
    });
    const get = server?.requests.find((q) => q.url === '/v1/get_job');
    expect(JSON.parse(get?.body ?? '{}')).toEqual({ projectId: 's_1', jobId: 'job_seen', cursor: 0 });
    // The description lists no method: every one the registry knows is said not listed there.
    expect(seen.report.methods.filter((m) => m.problem === 'not listed' && m.sources.includes('openapi'))).toHaveLength(
      METHOD_INDEX_NAMES.length,
    );
  });
});

describe('the --json report’s layout', () => {
  it('is the one --help and docs/scripting.md list, key by key, in order', () => {
    const listed = doctor.jsonFields ?? '';
    const inOrder = (keys: string[]) => new RegExp(keys.map((k) => `\\b${k}\\b`).join('[^]*?'));
    expect(listed).toMatch(inOrder(REPORT_KEYS));
    expect(listed).toContain(`counted: { ${PART_KEYS.counted.join(', ')} }`);
    expect(listed).toContain(`calls: [{ ${CALL_KEYS.join(', ')} }]`);
    expect(listed).toContain(`summary: { ${PART_KEYS.summary.join(', ')} }`);
    expect(listed).toContain(`fields: [{ ${FIELD_KEYS.join(', ')} }]`);
    expect(listed).toContain(`descriptions: { tools, openapi: { ${PART_KEYS.description.join(', ')} } }`);
    expect(listed).toContain(`methods: [{ ${PART_KEYS.method.join(', ')} }]`);
    expect(listed).toContain(`arguments: [{ ${PART_KEYS.argument.join(', ')} }]`);
    expect(listed).toContain(`notDescribed: [{ ${PART_KEYS.undescribed.join(', ')} }]`);
    expect(listed).toMatch(inOrder(TARGET_KEYS.filter((k) => !/From$|^no/.test(k))));
    const scripting = readFileSync(join(ROOT, 'docs/scripting.md'), 'utf8');
    expect(scripting).toContain(`| \`doctor\` | ${listed} |`);
  });
});

describe('docs/real-service.md', () => {
  it('the table of doctor’s calls is the plan’s, in its order, with the catalogue’s counts', () => {
    const doc = readFileSync(join(ROOT, 'docs/real-service.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `(\w+)`(?: \(cursor 0\))? \| [^|]*?\((\d+)\)/gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(rows).toEqual(PLAN.map((s) => [s.method, Number(/(\d+) fields? not shown/.exec(s.why)?.[1])]));
  });
});
