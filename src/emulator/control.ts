// HTTP routes of the control API under /_emulator/ (documented in docs/emulator.md "Control
// API"). Core routes below; a domain adds its own through Domain.control.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Control, ControlError } from './control-api.js';
import type { Emulator } from './emulator.js';
import { envelope } from './envelope.js';
import { EmulatorRefusal } from './refusal.js';
import { readBody, writeJson } from './http-io.js';
import type { TokenRecord } from './state.js';
import type { ControlRequest, ControlRoute } from './types.js';

const tokenView = (emu: Emulator, t: TokenRecord) => ({
  ...t,
  expiresAt: t.expiresAt === null ? null : emu.iso(t.expiresAt),
  createdAt: emu.iso(t.createdAt),
});

const c = (emu: Emulator) => new Control(emu);

export const CORE_CONTROL_ROUTES: ControlRoute<Emulator>[] = [
  { verb: 'GET', path: '', run: () => ({ routes: allRoutesHelp }) },
  { verb: 'GET', path: 'state', run: ({ emu }) => emu.snapshot() },
  {
    verb: 'POST',
    path: 'reset',
    run: ({ emu, body }) => {
      if (body.seed !== undefined && typeof body.seed !== 'boolean')
        throw new ControlError(400, 'seed must be true or false.');
      c(emu).reset({ seed: body.seed !== false });
      return { reset: true, seeded: body.seed !== false };
    },
  },
  {
    verb: 'GET',
    path: 'tokens',
    run: ({ emu }) =>
      c(emu)
        .tokens()
        .map((t) => tokenView(emu, t)),
  },
  { verb: 'POST', path: 'tokens', run: ({ emu, body }) => tokenView(emu, c(emu).createToken(body)) },
  { verb: 'GET', path: 'tokens/:ref', run: ({ emu, params }) => tokenView(emu, c(emu).findToken(params.ref)) },
  {
    verb: 'POST',
    path: 'tokens/:ref',
    run: ({ emu, params, body }) => tokenView(emu, c(emu).updateToken(params.ref, body)),
  },
  { verb: 'GET', path: 'workspaces', run: ({ emu }) => c(emu).workspaces() },
  { verb: 'POST', path: 'workspaces', run: ({ emu, body }) => c(emu).createWorkspace(body) },
  { verb: 'GET', path: 'workspaces/:id', run: ({ emu, params }) => c(emu).findWorkspace(params.id) },
  { verb: 'POST', path: 'workspaces/:id', run: ({ emu, params, body }) => c(emu).updateWorkspace(params.id, body) },
  {
    verb: 'POST',
    path: 'workspaces/:id/members',
    run: ({ emu, params, body }) => c(emu).setMember(params.id, body as never),
  },
  {
    verb: 'POST',
    path: 'workspaces/:id/sites',
    run: ({ emu, params, body }) => {
      const sites = c(emu).addSites(params.id, body);
      return sites.length > 100 ? { added: sites.length, first: sites[0], last: sites[sites.length - 1] } : sites;
    },
  },
  {
    verb: 'POST',
    path: 'sites/:siteId/outcome',
    run: ({ emu, params, body }) => c(emu).setOutcome(params.siteId, body),
  },
  { verb: 'GET', path: 'shapes', run: ({ emu }) => ({ shapes: emu.shapes.name, ...emu.shapes.describe?.() }) },
  { verb: 'GET', path: 'budget', run: ({ emu }) => c(emu).budget() },
  { verb: 'POST', path: 'budget', run: ({ emu, body }) => c(emu).setBudget(body) },
  { verb: 'GET', path: 'clock', run: ({ emu }) => c(emu).clock() },
  { verb: 'POST', path: 'clock', run: ({ emu, body }) => c(emu).setClock(body) },
  { verb: 'GET', path: 'faults', run: ({ emu }) => c(emu).faults() },
  { verb: 'POST', path: 'faults', run: ({ emu, body }) => c(emu).addFault(body as never) },
  {
    verb: 'DELETE',
    path: 'faults',
    run: ({ emu }) => {
      c(emu).clearFaults();
      return { cleared: true };
    },
  },
  {
    verb: 'GET',
    path: 'log',
    run: ({ emu, query }) =>
      c(emu).log({
        method: query.get('method') ?? undefined,
        since: query.has('since') ? Number(query.get('since')) : undefined,
      }),
  },
  {
    verb: 'DELETE',
    path: 'log',
    run: ({ emu }) => {
      c(emu).clearLog();
      return { cleared: true };
    },
  },
];

const allRoutesHelp: string[] = [];

function match(route: ControlRoute, verb: string, segments: string[]): Record<string, string> | null {
  if (route.verb !== verb && !(verb === 'PUT' && route.verb === 'POST')) return null;
  const parts = route.path === '' ? [] : route.path.split('/');
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(':')) params[parts[i].slice(1)] = segments[i];
    else if (parts[i] !== segments[i]) return null;
  }
  return params;
}

export function controlRoutes(emu: Emulator): ControlRoute<Emulator>[] {
  return [...CORE_CONTROL_ROUTES, ...emu.domains.flatMap((d) => d.control ?? [])];
}

export async function handleControl(
  emu: Emulator,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  verb: string,
  bodyLimit: number,
): Promise<void> {
  const headers = { 'X-Request-Id': emu.newRequestId(), 'Cache-Control': 'no-store' };
  try {
    emu.clock.runDue();
    const segments = url.pathname
      .slice('/_emulator'.length)
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
    const routes = controlRoutes(emu);
    if (allRoutesHelp.length === 0) allRoutesHelp.push(...routes.map((r) => `${r.verb} /_emulator/${r.path}`));
    let found: { route: ControlRoute<Emulator>; params: Record<string, string> } | undefined;
    for (const route of routes) {
      const params = match(route, verb, segments);
      if (params) {
        found = { route, params };
        break;
      }
    }
    if (!found) {
      const known = routes.some((r) => match({ ...r, verb: verb as ControlRoute['verb'] }, verb, segments));
      throw new ControlError(known ? 400 : 404, `No control route ${verb} ${url.pathname}; GET /_emulator lists them.`);
    }
    let body: Record<string, unknown> = {};
    if (verb !== 'GET' && verb !== 'DELETE') {
      const raw = await readBody(req, bodyLimit);
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new ControlError(400, 'The body is not valid JSON.');
        }
        if (body === null || typeof body !== 'object' || Array.isArray(body))
          throw new ControlError(400, 'The body must be a JSON object.');
      }
    } else {
      req.resume();
    }
    const request: ControlRequest<Emulator> = { params: found.params, query: url.searchParams, body, emu };
    const data = await found.route.run(request);
    writeJson(res, 200, envelope(200, 'OK', data ?? null), headers);
  } catch (err) {
    if (err instanceof ControlError || err instanceof EmulatorRefusal) {
      writeJson(res, err.status, envelope(err.status, err.message, null), headers);
      return;
    }
    if (err instanceof RangeError) {
      writeJson(res, 400, envelope(400, err.message, null), headers);
      return;
    }
    throw err;
  }
}
