// The publish record printed by `publish`, `publish status` and `site view`. The service shows
// only `running` and `status` (`ready` means live); the other fields are read when present,
// with their obvious alternatives (docs/real-service.md "Publishing, backups, restores and
// email"), so the keys of the --json document are always the same, and the service's other
// fields are passed through as it sent them.
import type { CallResult } from '../../api/client.js';
import { ApiError, requestNote } from '../../errors.js';
import { stringifyJson } from '../../io/json-deep.js';

export interface PublishRecord {
  siteId: string;
  running: boolean;
  status: string | null;
  url: string | null;
  deploymentId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: unknown;
  [extra: string]: unknown;
}

const FIXED = ['siteId', 'running', 'status', 'url', 'deploymentId', 'startedAt', 'finishedAt', 'error'];

/** Fields that may hold the live address as a whole http(s) URL, in the order they are read. */
export const ADDRESS_FIELDS = ['url', 'liveUrl', 'publicUrl', 'siteUrl', 'publishedUrl', 'address'];
/** Fields that may hold the live site's bare host name, made into https://<name>/. */
export const HOST_FIELDS = ['domain', 'hostname'];

function pick(data: Record<string, unknown>, names: string[]): unknown {
  for (const n of names) if (data[n] !== undefined && data[n] !== null && data[n] !== '') return data[n];
  return undefined;
}

function str(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : String(value);
}

function isWebAddress(value: unknown): value is string {
  if (typeof value !== 'string' || /\s/.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** A host name and nothing else: labels joined by dots, ending in a name of letters. */
const BARE_HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

/**
 * The live address, or null: the first field that holds a whole http(s) address, else a bare
 * host name made into an https address. Never an id, a path or anything else.
 */
export function liveAddress(data: unknown): string | null {
  const d = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  for (const n of ADDRESS_FIELDS) if (isWebAddress(d[n])) return d[n] as string;
  for (const n of HOST_FIELDS) {
    const host = d[n];
    if (typeof host === 'string' && BARE_HOST.test(host)) return `https://${host.toLowerCase()}/`;
  }
  return null;
}

export function publishRecord(siteId: string, data: unknown, fallback: Partial<PublishRecord> = {}): PublishRecord {
  const d = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const running = typeof d.running === 'boolean' ? d.running : Boolean(fallback.running);
  const record: PublishRecord = {
    siteId,
    running,
    status: str(pick(d, ['status', 'state'])) ?? fallback.status ?? null,
    url: liveAddress(d) ?? fallback.url ?? null,
    deploymentId: str(pick(d, ['deploymentId', 'deployId', 'publishId', '_id'])) ?? fallback.deploymentId ?? null,
    startedAt: str(pick(d, ['startedAt', 'createdAt'])) ?? fallback.startedAt ?? null,
    finishedAt: str(pick(d, ['finishedAt', 'completedAt', 'publishedAt'])) ?? fallback.finishedAt ?? null,
    error: d.error ?? null,
  };
  for (const [k, v] of Object.entries(d)) if (!FIXED.includes(k) && !(k in record)) record[k] = v;
  return record;
}

/**
 * get_publish_status's answer as a record. `running` is one of the two fields the service
 * shows, and every wait and every "is it live" rests on it: an answer without it as true or
 * false is an error naming what is missing, never "status unknown".
 */
export function statusRecord(
  siteId: string,
  result: CallResult,
  fallback: Partial<PublishRecord> = {},
  after = '',
): PublishRecord {
  const data = result.envelope.data;
  const d = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  if (typeof d?.running !== 'boolean') {
    const held =
      d === undefined
        ? `its data is ${data === null ? 'null' : Array.isArray(data) ? 'a list' : typeof data === 'string' ? 'text' : typeof data}`
        : 'running' in d
          ? `its \`running\` is ${stringifyJson(d.running)?.slice(0, 40)}`
          : `its data has ${Object.keys(d).length ? `the fields ${Object.keys(d).slice(0, 6).join(', ')}` : 'no fields'}`;
    throw new ApiError(
      {
        status: result.status,
        method: 'get_publish_status',
        message: '',
        requestId: result.requestId,
        data,
        envelope: result.envelope,
      },
      `The answer to get_publish_status for ${siteId} has no \`running\` (true or false), so whether a publish is running is not known (${held}).${after}${requestNote(result.requestId)}`,
    );
  }
  return publishRecord(siteId, d, fallback);
}

/** `ready` means live (as the service says); any other status of a finished publish is a failure. */
export function isLive(record: PublishRecord): boolean {
  return !record.running && record.status === 'ready';
}

/** The error of a failed publish as one line: its message under any of the usual names. */
export function errorText(error: unknown): string | null {
  if (error === null || error === undefined || error === '' || error === false) return null;
  if (typeof error === 'string') return error;
  if (typeof error !== 'object') return String(error);
  const e = error as Record<string, unknown>;
  for (const n of ['message', 'detail', 'error', 'reason', 'description']) {
    if (typeof e[n] === 'string' && e[n] !== '') return e[n] as string;
    if (e[n] && typeof e[n] === 'object') {
      const inner = errorText(e[n]);
      if (inner) return inner;
    }
  }
  return stringifyJson(error) ?? 'null';
}
