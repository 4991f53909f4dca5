// The token record from GET /v1/token: the reference names what it holds (name, scopes,
// reachable workspaces, expiry, `rateLimit`) but not the exact field names, except `rateLimit`
// (`data.rateLimit` reports the budget of the minute). So each is read under the obvious names.
import { stringifyJson } from '../io/json-deep.js';
import { field, isRecord, locate, resource } from './read.js';
import { asId, asNumber, asText } from './values.js';

const EXPIRY = ['expiresAt', 'expires_at', 'expiry', 'expires'];

export const TOKEN = resource('token record', 'GET /v1/token data', {
  name: field('its name', ['name', 'tokenName'], asText),
  scopes: field('its scopes', ['scopes', 'scope'], (v) => (Array.isArray(v) ? v : undefined)),
  workspaces: field('the workspaces it reaches', ['workspaces', 'workspaceIds', 'reachableWorkspaces'], (v) =>
    Array.isArray(v) ? v : undefined,
  ),
  expiry: field('its expiry', EXPIRY, asText),
  rateLimit: field(
    'its budget of the minute',
    ['rateLimit', 'ratelimit', 'rate_limit'],
    (v) => (isRecord(v) ? v : undefined),
    ['rateLimit'],
  ),
  limit: field('the calls of a minute', ['rateLimit.limit', 'ratelimit.limit', 'rate_limit.limit'], asNumber),
  remaining: field('the calls left', ['rateLimit.remaining', 'ratelimit.remaining', 'rate_limit.remaining'], asNumber),
  reset: field(
    'the seconds until the minute ends',
    ['rateLimit.reset', 'rateLimit.resetSeconds', 'ratelimit.reset', 'rate_limit.reset'],
    asNumber,
  ),
});

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

const workspaceRef = field('a workspace', ['_id', 'id', 'workspaceId'], asId);

/** A list of names or records, each as text: a string, a record's id, else the record as JSON. */
function strings(value: unknown[] | undefined): string[] {
  return (value ?? []).map((v) => (typeof v === 'string' ? v : (locate(v, workspaceRef)?.value ?? stringifyJson(v))));
}

export function readTokenInfo(data: unknown): TokenInfo {
  const f = TOKEN.fields;
  const expiry = locate(data, f.expiry)?.value;
  const d = isRecord(data) ? data : {};
  return {
    name: locate(data, f.name)?.value,
    scopes: strings(locate(data, f.scopes)?.value),
    workspaces: strings(locate(data, f.workspaces)?.value),
    expiresAt: expiry,
    neverExpires: expiry === undefined && EXPIRY.some((k) => k in d && d[k] === null),
    rateLimit: locate(data, f.rateLimit)
      ? {
          limit: locate(data, f.limit)?.value,
          remaining: locate(data, f.remaining)?.value,
          reset: locate(data, f.reset)?.value,
        }
      : undefined,
    raw: data,
  };
}
