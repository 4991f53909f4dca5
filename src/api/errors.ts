// Turns a refusal of the service into one plain sentence that says what to do next, with the
// request id, and into the typed error that carries its exit code.
import {
  ApiError,
  type ApiErrorInit,
  AuthError,
  type CliError,
  NetworkError,
  RateLimitError,
  requestNote,
} from '../errors.js';
import { sb } from '../io/shell.js';

export interface RefusalInfo extends ApiErrorInit {
  headers?: Record<string, string | string[] | undefined>;
}

/** What a refusal is about: the first of these its sentence names ("No job has the id … on this site" is a job's). */
const SUBJECTS = /\b(scheduled job|job|run|storage restore|restore|site|workspace)s?\b/i;

/** The thing a "does not exist" (404) names first, lower-case, or undefined. */
export const refusalSubject = (message: string): string | undefined => SUBJECTS.exec(message)?.[1].toLowerCase();

/** Where the sites are listed, for a site the service did not find (a "did you mean" replaces it). */
export const SITE_LIST_HINT = 'Check the id; `sitebuilder site list` shows the sites this token reaches.';

/** The 404 hint: where the ids of what the service did not find are listed. */
function notFoundHint(message: string, site: string | undefined): string {
  if (/no tool|unknown method|\/v1\/tools/i.test(message))
    return 'Run `sitebuilder tools` to see the methods this token can use.';
  const what = refusalSubject(message);
  if (what === 'site') return SITE_LIST_HINT;
  // No method lists storage restores: the id is the one printed when the restore started.
  if (what === 'storage restore' || what === 'restore')
    return `Check the id: \`${sb('storage-restore status', site ?? 'SITE')} RESTORE_ID\` takes the restore id printed when \`${sb('storage-restore', site ?? 'SITE')}\` started the restore.`;
  if (what === 'job' || what === 'run')
    return `Check the id; \`${sb('message list', site ?? 'SITE')}\` shows the site’s runs.`;
  return what === 'workspace'
    ? 'Check the id; `sitebuilder workspace list` shows the workspaces this token reaches.'
    : 'Check the id.';
}

/** The command that lists what a listing method lists, for a refusal that names the method. */
const LISTED_BY: Record<string, string> = {
  list_workspaces: 'workspace list',
  list_sites: 'site list',
  list_backups: 'backup list',
  list_code_backups: 'code-backup list',
  list_storage_backups: 'storage-backup list',
  browse_storage_backup: 'storage-backup browse',
  list_messages: 'message list',
  list_queued_messages: 'queue list',
  get_site_email_settings: 'email domains',
};

/**
 * The service's sentence points to a method ("…; list_storage_backups lists them."): a person
 * is pointed to the command instead. Only where it says what lists or shows something.
 */
function commandsForMethods(message: string, site: string | undefined): string {
  return message.replace(/\b([a-z]+(?:_[a-z]+)+)\b(?= (?:lists|shows))/g, (name) => {
    const words = LISTED_BY[name];
    if (!words) return name;
    const needsSite = !['workspace list', 'site list'].includes(words);
    const more = words === 'storage-backup browse' ? ' BACKUP_ID' : '';
    return `\`${sb(words, ...(needsSite && site ? [site] : []))}${more}\``;
  });
}

function withPeriod(text: string): string {
  const t = text.trim();
  if (!t) return t;
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** 120000 → "2 min", 30000 → "30 s", 250 → "250 ms". */
export const duration = (ms: number): string =>
  ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;

/** How the token in force was given, so a 401 names the right fix. */
export type TokenOrigin = 'flag' | 'env' | 'profile';

const LOGIN_HINTS: Record<TokenOrigin, string> = {
  flag: 'Pass a valid token with --token (or drop it to use the saved one).',
  env: 'SITEBUILDER_TOKEN holds this token: set it to a valid one, or unset it and run `sitebuilder auth login`.',
  profile: 'Run `sitebuilder auth login` with a valid token.',
};

/** The service's own sentence already says what to do: a generic hint would only blur it. */
const SAYS_WHAT_TO_DO =
  /try again|wait |stop it|confirm again|upgrade|check the|run `|lists them|add credits|remove a site|!$/i;

/** A hint only where it is right for this refusal; none rather than a misleading one. */
function hintFor(info: RefusalInfo, origin: TokenOrigin): string {
  const msg = info.message.trim();
  const low = msg.toLowerCase();
  if (info.status === 401) return LOGIN_HINTS[origin];
  if (info.status === 429) {
    // "Too many tool calls, wait 12 seconds." already says it: the hint would repeat it.
    if (/\bwait\b|try again|retry/i.test(msg)) return '';
    if (info.retryAfterSeconds !== undefined) return `Wait ${info.retryAfterSeconds} seconds and try again.`;
  }
  if (info.status === 409 && /idempotency/.test(low)) return 'Try again once the first call has finished.';
  if (info.status === 422 && /idempotency/.test(low)) return 'Use a new idempotency key for a different request.';
  if (SAYS_WHAT_TO_DO.test(msg)) return '';
  switch (info.status) {
    case 400:
      return low.includes('token') && low.includes('address') ? 'Send the token only in the Authorization header.' : '';
    case 402:
      return 'Nothing ran and nothing was charged; add AI credits to the workspace, then try again.';
    case 403:
      if (/scope/.test(low))
        return 'Create a token with that scope in the dashboard under Tokens, then log in with it.';
      if (/reach|narrow/.test(low)) return 'Use a token that reaches this workspace.';
      if (/permission|role/.test(low)) return 'Ask a workspace owner for the permission.';
      if (/plan/.test(low)) return 'Upgrade the workspace’s plan, then try again.';
      return '';
    case 404:
      return notFoundHint(msg, info.site);
    case 405:
      return 'Methods are called with POST.';
    case 409:
      return /busy|running|in progress|already/.test(low) ? 'Try again once the other work has finished.' : '';
    case 413:
      return 'Send a smaller body (at most 150 MB).';
    case 429:
      return 'Wait for the quota to free up, then try again.';
    default:
      return info.status >= 500 ? 'The service failed; try again in a moment.' : '';
  }
}

export function refusalSentence(info: RefusalInfo, origin: TokenOrigin = 'profile'): string {
  const what = withPeriod(
    commandsForMethods(info.message, info.site) || `The service answered ${info.method} with HTTP ${info.status}`,
  );
  const hint = hintFor(info, origin);
  return `${what}${hint ? ` ${hint}` : ''}${requestNote(info.requestId)}`;
}

export function toApiError(info: RefusalInfo, sentence = refusalSentence(info)): ApiError {
  if (info.status === 401 || info.status === 403) return new AuthError(info, sentence);
  if (info.status === 429) return new RateLimitError(info, sentence);
  return new ApiError(info, sentence);
}

/** A network failure after the allowed attempts, as one sentence that says what to check. */
export function networkFailure(
  label: string,
  baseUrl: URL,
  err: NodeJS.ErrnoException,
  attempts: number,
  timeoutMs?: number,
  /** Where the address came from, in words (context.ts addressOrigin): the way to change it. */
  origin?: string,
): NetworkError {
  const code = err.code ?? '';
  const where = baseUrl.origin;
  const within = timeoutMs === undefined ? '' : ` within ${duration(timeoutMs)}`;
  const what =
    code === 'ECONNREFUSED'
      ? `Could not connect to ${where} (connection refused)`
      : code === 'ETIMEDOUT'
        ? `${label} got no complete answer from ${where}${within}`
        : code === 'ENOTFOUND'
          ? `Could not resolve ${baseUrl.hostname}`
          : `The connection to ${where} failed during ${label} (${code || err.message})`;
  return new NetworkError(
    `${what} after ${attempts} attempt${attempts === 1 ? '' : 's'}; check the address (${origin ? `it comes from ${origin}` : '--base-url / SITEBUILDER_BASE_URL'}) and your network, then try again.`,
    { code: code || null, attempts },
  );
}

/**
 * A write that failed in a way that leaves its effect unknown (no answer in time, a cut
 * connection, a 5xx, a first call still in flight): it may still take effect. The sentence says
 * so and gives the key; `details.idempotencyKey` lets cli.ts print the command that re-runs it
 * with the same key, which can then only get the first call's answer, never a second effect.
 * Any other call's error (a read, a write without a key) is returned as it is.
 */
export function withUnknownOutcome<E extends CliError>(
  err: E,
  call: { label: string; write: boolean; key?: string },
): E {
  const { label, key } = call;
  if (!call.write || key === undefined) return err;
  err.message = `${err.message} ${label} may still take effect; its idempotency key is ${key}.`;
  Object.assign(err.details, { idempotencyKey: key, outcome: 'unknown' });
  return err;
}

/** The idempotency key of a write whose outcome is unknown, when the error is one. */
export function unknownOutcomeKey(err: unknown): string | undefined {
  const details = (err as Partial<CliError> | null)?.details;
  return details?.outcome === 'unknown' && typeof details.idempotencyKey === 'string'
    ? details.idempotencyKey
    : undefined;
}
