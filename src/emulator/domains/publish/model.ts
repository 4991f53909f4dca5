// The publish model: a deployment's status and log are derived from the emulated time elapsed
// since it started (no timers, so a saved state resumes where it was).
//
// Statuses (the service documents only `ready`): `queued`, `building`, `deploying` while
// `running` is true; then `ready` (live) or `failed` (the live site keeps its previous version).
// A site that was never published answers `running` false and status `unpublished`.

export type PublishStatus = 'queued' | 'building' | 'deploying' | 'ready' | 'failed' | 'unpublished';

export interface SiteFile {
  path: string;
  contentType: string;
  body: string;
}

export interface Deployment {
  deploymentId: string;
  siteId: string;
  startedAt: number;
  /** Emulated ms the publish takes, fixed when it starts. */
  durationMs: number;
  /** Set when the control API asked this publish to fail. */
  failure: string | null;
  createdBy: string;
  /** The site's files as they were when the publish started. */
  files: SiteFile[];
}

/** Fractions of the duration at which each phase starts; a failure happens at FAIL_AT. */
const QUEUED_UNTIL = 0.1;
const BUILDING_UNTIL = 0.7;
const FAIL_AT = 0.6;

export const DEFAULT_PUBLISH_MS = 5_000;

/** The service's refusal of a publish while another one runs (a call, or a deploy hook's). */
export const ALREADY_PUBLISHING =
  'This site is already being published. Wait for that publish to finish, then try again!';

export function statusAt(
  d: Deployment,
  now: number,
): { running: boolean; status: PublishStatus; finishedAt: number | null } {
  const f = (now - d.startedAt) / d.durationMs;
  if (d.failure !== null && f >= FAIL_AT)
    return { running: false, status: 'failed', finishedAt: d.startedAt + Math.round(d.durationMs * FAIL_AT) };
  if (f >= 1) return { running: false, status: 'ready', finishedAt: d.startedAt + d.durationMs };
  return {
    running: true,
    status: f < QUEUED_UNTIL ? 'queued' : f < BUILDING_UNTIL ? 'building' : 'deploying',
    finishedAt: null,
  };
}

export interface LogLine {
  at: string;
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** Every line of the deployment's log with the fraction of the duration at which it appears. */
function script(d: Deployment, url: string, who: string): Array<[number, LogLine['level'], string]> {
  const pages = d.files.filter((f) => f.contentType.startsWith('text/html'));
  const lines: Array<[number, LogLine['level'], string]> = [
    [0, 'info', `Publish ${d.deploymentId} requested by ${who}.`],
    [
      QUEUED_UNTIL,
      'info',
      `Building ${pages.length} page${pages.length === 1 ? '' : 's'} and ${d.files.length - pages.length} other file${d.files.length - pages.length === 1 ? '' : 's'}.`,
    ],
  ];
  const step = (FAIL_AT - QUEUED_UNTIL - 0.05) / Math.max(1, d.files.length);
  d.files.forEach((file, i) => {
    lines.push([
      QUEUED_UNTIL + 0.01 + step * i,
      'info',
      `Built /${file.path} (${Buffer.byteLength(file.body)} bytes).`,
    ]);
  });
  if (d.failure !== null) {
    lines.push([FAIL_AT, 'error', d.failure]);
    lines.push([FAIL_AT, 'error', 'Publish failed; the live site keeps its previous version.']);
    return lines;
  }
  lines.push([BUILDING_UNTIL, 'info', `Uploading ${d.files.length} file${d.files.length === 1 ? '' : 's'}.`]);
  lines.push([0.9, 'info', `Switching ${url} to ${d.deploymentId}.`]);
  lines.push([1, 'info', `Live at ${url}`]);
  return lines;
}

/** The log lines visible at `now`. */
export function logAt(d: Deployment, now: number, url: string, who: string): LogLine[] {
  const elapsed = now - d.startedAt;
  return script(d, url, who)
    .map(([fraction, level, message]) => ({ offset: Math.round(fraction * d.durationMs), level, message }))
    .filter((l) => l.offset <= elapsed)
    .map((l) => ({ at: new Date(d.startedAt + l.offset).toISOString(), level: l.level, message: l.message }));
}

/** The file a request path names: exact, then .html, then folder/index.html. */
export function resolvePage(files: SiteFile[], requestPath: string): SiteFile | undefined {
  const p = requestPath.replace(/^\/+/, '');
  const candidates = p === '' || p.endsWith('/') ? [`${p}index.html`] : [p, `${p}.html`, `${p}/index.html`];
  for (const c of candidates) {
    const hit = files.find((f) => f.path === c);
    if (hit) return hit;
  }
  return undefined;
}
