// The token record from GET /v1/token. Its exact field names are not documented by the service, so
// the obvious alternatives are read.
import { stringifyJson } from '../../io/json-deep.js';
import { asRecord, pick, pickString } from '../../io/records.js';

export interface TokenInfo {
  name?: string;
  scopes: string[];
  workspaces: string[];
  expiresAt?: string;
  /** The service said the token has no expiry (an explicit null). */
  neverExpires: boolean;
  rateLimit?: { limit?: number; remaining?: number; reset?: number };
  raw: unknown;
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) =>
    typeof v === 'string' ? v : (pickString(v, '_id', 'id', 'workspaceId') ?? stringifyJson(v)),
  );
}

export function readTokenInfo(data: unknown): TokenInfo {
  const d = asRecord(data);
  const rl = asRecord(pick(d, 'rateLimit', 'ratelimit', 'rate_limit'));
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const expiry = pick(d, 'expiresAt', 'expires_at', 'expiry', 'expires');
  return {
    name: pickString(d, 'name', 'tokenName'),
    scopes: strings(pick(d, 'scopes', 'scope')),
    workspaces: strings(pick(d, 'workspaces', 'workspaceIds', 'reachableWorkspaces')),
    expiresAt: expiry === undefined ? undefined : String(expiry),
    neverExpires:
      expiry === undefined && ['expiresAt', 'expires_at', 'expiry', 'expires'].some((k) => k in d && d[k] === null),
    rateLimit: Object.keys(rl).length
      ? { limit: num(rl.limit), remaining: num(rl.remaining), reset: num(pick(rl, 'reset', 'resetSeconds')) }
      : undefined,
    raw: data,
  };
}
