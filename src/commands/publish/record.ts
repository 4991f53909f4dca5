// The publish record printed by `publish` and `publish status`. The service documents only
// `running` and `status`; the other fields are read when present (with their obvious
// alternatives), so the keys of the --json document are always the same and unknown fields are
// passed through.

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

function pick(data: Record<string, unknown>, names: string[]): unknown {
  for (const n of names) if (data[n] !== undefined && data[n] !== null && data[n] !== '') return data[n];
  return undefined;
}

function str(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : String(value);
}

/** The live address: a URL field, or a bare domain made into one. */
export function liveAddress(data: Record<string, unknown>): string | null {
  const url = pick(data, ['url', 'liveUrl', 'siteUrl', 'publishedUrl', 'address']);
  if (typeof url === 'string') return url;
  const domain = pick(data, ['domain', 'hostname']);
  return typeof domain === 'string' ? `https://${domain}` : null;
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

/** `ready` means live (as the service says); our emulator also answers `failed`. Anything else is unknown. */
export function isLive(record: PublishRecord): boolean {
  return !record.running && record.status === 'ready';
}

/** The error of a failed publish as one line: its message when it has one. */
export function errorText(error: unknown): string | null {
  if (error === null || error === undefined || error === '') return null;
  if (typeof error === 'string') return error;
  const m = (error as Record<string, unknown>).message;
  return typeof m === 'string' ? m : JSON.stringify(error);
}

export function describeStatus(record: PublishRecord): string {
  if (record.running) return `running${record.status ? ` (${record.status})` : ''}`;
  return record.status ?? 'unknown';
}
