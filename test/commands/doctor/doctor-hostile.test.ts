// `sitebuilder doctor` against a service whose own description disagrees with the registry, and
// that echoes the token everywhere: a proxy in front of the emulator (test/helpers/planting-proxy.ts)
// adds a method the registry does not know to GET /v1/tools and GET /v1/openapi.json, gives
// get_job a `cursor` of another type and list_sites a required argument of its own, names a tool,
// an OpenAPI path, an argument and an allowed value after the very token the request carried, and
// puts that token into every answer's data (as a key and as a value), its message and X-Request-Id.
// Piped, with --json, on terminals of 80 and 40 columns and with --debug: the findings are said,
// the token is not, and nothing is written.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { methodInfo } from '../../../src/api/method-index.js';
import { FakeClock } from '../../../src/clock.js';
import type { DoctorReport } from '../../../src/commands/doctor/report.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { displayWidth } from '../../../src/io/width.js';
import { isRecord } from '../../../src/service/read.js';
import { checkReport } from '../../helpers/doctor-report.js';
import { type PlantingProxy, startPlantingProxy } from '../../helpers/planting-proxy.js';
import { run } from '../../helpers/run.js';

const TOKEN = DEMO_TOKENS.full;
const SECRET = TOKEN.slice(TOKEN.lastIndexOf('_') + 1);
const MASK = `sbt_demo_…${TOKEN.slice(-4)}`;

/** The token, or any 12 characters of its secret part, anywhere in the text. */
function leaks(text: string): string[] {
  const found = text.includes(TOKEN) ? [TOKEN] : [];
  for (let i = 0; i + 12 <= SECRET.length; i++)
    if (text.includes(SECRET.slice(i, i + 12))) found.push(SECRET.slice(i, i + 12));
  return found;
}

const tokenOf = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
type Rec = Record<string, unknown>;
const schemaOf = (method: string) =>
  structuredClone(methodInfo(method)?.schema) as unknown as Rec & { properties: Rec };

/** The service's description, changed: one method more, two contradicted, and the token as names. */
function describeOtherwise(token: string): { tool: (t: Rec) => Rec; extraTools: Rec[]; paths: (p: Rec) => void } {
  const preview = {
    properties: { projectId: { type: 'string' }, width: { type: 'integer' } },
    required: ['projectId'],
  };
  const change = (name: string, schema: Rec & { properties: Rec; required?: unknown }) => {
    if (name === 'get_job') schema.properties.cursor = { type: 'string' };
    if (name === 'list_sites') {
      schema.properties.region = { type: 'string' };
      schema.required = [...((schema.required as string[]) ?? []), 'region'];
    }
    if (name === 'list_workspaces') schema.properties[token] = { type: 'string', enum: [token] };
    return schema;
  };
  return {
    tool: (t) =>
      typeof t.name === 'string' && methodInfo(t.name) ? { ...t, inputSchema: change(t.name, schemaOf(t.name)) } : t,
    extraTools: [
      { name: 'render_preview', scope: 'sites:read', write: false, description: 'A preview.', inputSchema: preview },
      { name: token, scope: 'sites:read', write: false, description: `Echo ${token}`, inputSchema: preview },
    ],
    paths: (paths) => {
      for (const [path, item] of Object.entries(paths)) {
        const name = path.slice('/v1/'.length);
        const post = isRecord(item) ? item.post : undefined;
        if (!isRecord(post) || !methodInfo(name)) continue;
        post.requestBody = { content: { 'application/json': { schema: change(name, schemaOf(name)) } } };
      }
      for (const name of ['render_preview', token])
        paths[`/v1/${name}`] = {
          post: { requestBody: { content: { 'application/json': { schema: preview } } }, responses: {} },
        };
    },
  };
}

function rewrite(text: string, req: IncomingMessage): string {
  const token = tokenOf(req);
  const body = JSON.parse(text) as Rec;
  const d = describeOtherwise(token);
  if (req.url === '/v1/tools' && Array.isArray(body.data))
    body.data = [...body.data.map((t) => d.tool(t as Rec)), ...d.extraTools];
  const doc = isRecord(body.data) && isRecord(body.data.paths) ? body.data : isRecord(body.paths) ? body : undefined;
  if (req.url === '/v1/openapi.json' && doc) d.paths(doc.paths as Rec);
  else if (isRecord(body.data)) Object.assign(body.data, { [token]: token, echo: `Bearer ${token}` });
  if (typeof body.message === 'string') body.message = `${body.message} (${token})`;
  return JSON.stringify(body);
}

const clock = new FakeClock();
let emu: RunningEmulator;
let proxy: PlantingProxy;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  proxy = await startPlantingProxy(emu.baseUrl, {
    plantFor: () => '',
    headerPlantFor: (req) => `-${tokenOf(req)}`,
    rewrite,
  });
  env = { SITEBUILDER_BASE_URL: proxy.baseUrl, SITEBUILDER_TOKEN: TOKEN };
});
beforeEach(() => emu.control.reset());
afterAll(async () => {
  await proxy.close();
  await emu.close();
});

const writes = () => emu.control.log().filter((e) => e.verb !== 'GET' && methodInfo(e.method ?? '')?.write !== false);

describe('doctor against a description that disagrees with the registry, echoing the token', () => {
  it('--json: the unknown methods and the contradicted arguments, from both descriptions; no token', async () => {
    const r = await run(['doctor', '--json'], { env, clock });
    expect(r.code, r.stderr).toBe(0);
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
    const report = JSON.parse(r.stdout) as DoctorReport;
    checkReport(report, 'a description that disagrees');
    const unknown = report.methods.filter((m) => m.problem === 'unknown');
    expect(unknown.map((m) => [m.method, m.sources])).toEqual([
      ['render_preview', ['tools', 'openapi']],
      [MASK, ['tools', 'openapi']],
    ]);
    const args = report.arguments.map((a) => [a.method, a.argument, a.problem, a.registry, a.service, a.stated]);
    expect(args).toEqual(
      expect.arrayContaining([
        ['get_job', 'cursor', 'type', 'integer', 'string', true],
        ['list_sites', 'region', 'unknown', null, 'required, string', false],
        ['list_workspaces', MASK, 'unknown', null, 'optional, string', false],
      ]),
    );
    expect(args).toHaveLength(3);
    expect(report.arguments.every((a) => a.sources.join() === 'tools,openapi')).toBe(true);
    // The echo was there, masked: in the answers' shapes and the request ids.
    expect(r.stdout).toContain(MASK);
    expect(writes()).toEqual([]);
    expect(emu.control.log().filter((e) => e.counted).length).toBeLessThanOrEqual(5);
  });

  it('piped: a row per finding; with --debug: no token either', async () => {
    const r = await run(['doctor'], { env, clock });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.filter((c) => c[0] === 'method' && c[1] === 'unknown').map((c) => c.slice(2, 4))).toEqual([
      ['render_preview', 'tools openapi'],
      [MASK, 'tools openapi'],
    ]);
    expect(rows.filter((c) => c[0] === 'argument').map((c) => c.slice(1, 4))).toEqual(
      expect.arrayContaining([
        ['get_job', 'cursor', 'type'],
        ['list_sites', 'region', 'unknown'],
      ]),
    );
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
    const debug = await run(['doctor', '--debug'], { env, clock });
    expect(debug.code, debug.stderr).toBe(0);
    expect(leaks(debug.stdout + debug.stderr)).toEqual([]);
    expect(debug.stderr).toContain(MASK);
    expect(writes()).toEqual([]);
  });

  it.each([80, 40])(
    'on a terminal of %i columns: each finding in a sentence, fitted, nothing cut; no token',
    async (columns) => {
      const r = await run(['doctor'], { env, clock, tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      expect(leaks(r.stdout + r.stderr)).toEqual([]);
      const flat = r.stdout.replace(/\s+/g, ' ');
      expect(flat).toContain(
        `the service lists 2 methods sitebuilder does not know: render_preview (tools, openapi), ${MASK} (tools, openapi)`,
      );
      expect(flat).toContain(
        'get_job: `cursor` is string to the service, integer to sitebuilder (the reference shows it) (tools, openapi)',
      );
      expect(flat).toContain(
        'list_sites: the service takes `region` (required, string), which sitebuilder does not know',
      );
      // Nothing cut: the only … is the token's mask.
      expect(r.stdout.split(MASK).join('')).not.toContain('…');
      const wide = r.stdout.split('\n').filter((l) => displayWidth(l) > columns && l.trim().includes(' '));
      expect(wide, r.stdout).toEqual([]);
      expect(writes()).toEqual([]);
    },
  );
});
