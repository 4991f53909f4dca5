// The publish record printed by `publish`, `publish status` and `site view`, and the other
// answers of the publish methods. The service shows only `running` and `status` (`ready` means
// live); the other fields are read when present, with their obvious alternatives
// (docs/real-service.md "Publishing, backups, restores and email"), so the keys of the --json
// document are always the same, and the service's other fields are passed through as sent.
import { stringifyJson } from '../io/json-deep.js';
import { ApiError, requestNote } from '../errors.js';
import { kindOf } from './page.js';
import { field, isRecord, locate, recordOf, resource } from './read.js';
import { hostAddressField, liveAddressField, readLiveAddress } from './sites.js';
import { asText, readText } from './values.js';

/** What statusRecord needs of a call's result (api/call.ts CallResult). */
interface AnswerOf {
  status: number;
  requestId?: string;
  envelope: { data?: unknown; [k: string]: unknown };
}

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

export const PUBLISH = resource('publish record', 'publish_site data; get_publish_status data', {
  running: field('whether it runs', ['running'], (v) => (typeof v === 'boolean' ? v : undefined), ['running']),
  status: field('its status', ['status', 'state'], asText, ['status']),
  deploymentId: field('its deployment', ['deploymentId', 'deployId', 'publishId', '_id'], asText),
  startedAt: field('when it started', ['startedAt', 'createdAt'], asText),
  finishedAt: field('when it finished', ['finishedAt', 'completedAt', 'publishedAt'], asText),
  address: liveAddressField,
  host: hostAddressField,
});

/** The live address, or null (service/sites.ts readLiveAddress: a whole address, never an id). */
export function liveAddress(data: unknown): string | null {
  return readLiveAddress(data) ?? null;
}

const str = (value: string | undefined): string | null => value ?? null;

export function publishRecord(siteId: string, data: unknown, fallback: Partial<PublishRecord> = {}): PublishRecord {
  const d = recordOf(data);
  const f = PUBLISH.fields;
  const at = (x: typeof f.status) => str(locate(d, x)?.value);
  const running = locate(d, f.running)?.value ?? Boolean(fallback.running);
  const record: PublishRecord = {
    siteId,
    running,
    status: at(f.status) ?? fallback.status ?? null,
    url: liveAddress(d) ?? fallback.url ?? null,
    deploymentId: at(f.deploymentId) ?? fallback.deploymentId ?? null,
    startedAt: at(f.startedAt) ?? fallback.startedAt ?? null,
    finishedAt: at(f.finishedAt) ?? fallback.finishedAt ?? null,
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
  result: AnswerOf,
  fallback: Partial<PublishRecord> = {},
  after = '',
): PublishRecord {
  const data = result.envelope.data;
  const d = isRecord(data) ? data : undefined;
  if (typeof d?.running !== 'boolean') {
    const held =
      d === undefined
        ? `its data is ${kindOf(data)}`
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

const ERROR_TEXT = field(
  'the failure’s text',
  ['message', 'detail', 'error', 'reason', 'description', '*.message', '*.detail', '*.reason', '*.description'],
  (v) => {
    const t = readText(v);
    return t ? t : undefined;
  },
);

/** The error of a failed publish as one line: its message under any of the usual names, else the object as JSON. */
export function errorText(error: unknown): string | null {
  if (error === null || error === undefined || error === '' || error === false) return null;
  if (typeof error === 'string') return error;
  if (typeof error !== 'object') return String(error);
  return locate(error, ERROR_TEXT)?.value ?? stringifyJson(error) ?? 'null';
}

/** A publish already running (409): its id in `data.activePublish` (not shown), when it is text. */
export function activePublishOf(data: unknown): string | undefined {
  const a = recordOf(data).activePublish;
  return typeof a === 'string' ? a : undefined;
}

export interface LogLine {
  at: string | null;
  level: string | null;
  message: string;
}

const LOG = resource('publish log line', 'get_publish_logs data (the list)', {
  message: field('its text', ['message', 'text', 'line', 'msg'], asText),
  at: field('its time', ['at', 'time', 'timestamp', 'createdAt'], asText),
  level: field('its level', ['level', 'severity', 'stream'], asText),
});

/** A log line: a bare string, or a record with the usual field names; else the line as JSON. */
export function logLine(raw: unknown): LogLine {
  if (typeof raw === 'string') return { at: null, level: null, message: raw };
  const f = LOG.fields;
  return {
    at: locate(raw, f.at)?.value ?? null,
    level: locate(raw, f.level)?.value ?? null,
    message: locate(raw, f.message)?.value ?? stringifyJson(raw),
  };
}

export { LOG };
