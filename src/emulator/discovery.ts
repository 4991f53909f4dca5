// The three GET addresses; none spends budget. /v1/openapi.json is served without a token (it
// describes the service, not the caller); the other two need one.
import { methodInfos } from '../api/method-index.js';
import { GET_ADDRESSES } from '../api/registry-terms.js';
import { authenticate } from './auth.js';
import type { Emulator } from './emulator.js';
import { envelope } from './envelope.js';
import { openApiDocument } from './openapi.js';
import type { ApiAnswer, ApiRequest } from './api-exchange.js';
import type { TokenRecord } from './state.js';

export const isDiscoveryPath = (path: string): boolean => (GET_ADDRESSES as readonly string[]).includes(path);

export function discovery(emu: Emulator, req: ApiRequest, trace: { token?: TokenRecord }): ApiAnswer {
  const path = req.url.pathname;
  if (path === '/v1/openapi.json') {
    return {
      status: 200,
      body: envelope(200, 'OpenAPI 3.1 description of the service.', openApiDocument()),
      headers: {},
    };
  }
  const { token, user } = authenticate(emu, req.headers);
  trace.token = token;
  if (path === '/v1/token') {
    const budget = emu.budgets.view(token._id);
    const data = {
      _id: token._id,
      name: token.name,
      user: { _id: user._id, name: user.name, email: user.email },
      scopes: token.scopes,
      workspaces: emu.reachableWorkspaces(token).map((w) => ({ _id: w._id, name: w.name })),
      narrowed: token.workspaces !== null,
      expiresAt: token.expiresAt === null ? null : emu.iso(token.expiresAt),
      createdAt: emu.iso(token.createdAt),
      rateLimit: { limit: budget.limit, remaining: budget.remaining, reset: budget.resetSeconds },
    };
    return { status: 200, body: envelope(200, `Token ${token.name}.`, data), headers: {} };
  }
  const tools = methodInfos()
    .filter((m) => token.scopes.includes(m.scope))
    .map((m) => ({
      name: m.name,
      description: m.summary,
      scope: m.scope,
      write: m.write,
      destructive: m.destructive,
      listing: m.listing,
      permission: m.permission,
      inputSchema: m.schema,
    }));
  return {
    status: 200,
    body: envelope(200, `${tools.length} tools this token can use.`, tools, { count: tools.length }),
    headers: {},
  };
}
