// Turns a refusal of the service into one plain sentence that says what to do next, with the
// request id, and into the typed error that carries its exit code.
import { ApiError, AuthError, NetworkError, RateLimitError, type ApiErrorInit } from '../errors.js';

export interface RefusalInfo extends ApiErrorInit {
  headers?: Record<string, string | string[] | undefined>;
}

function withPeriod(text: string): string {
  const t = text.trim();
  if (!t) return t;
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function hintFor(info: RefusalInfo): string {
  const msg = info.message.toLowerCase();
  switch (info.status) {
    case 400:
      return msg.includes('token') && msg.includes('address')
        ? 'Send the token only in the Authorization header.'
        : 'Check the arguments (sitebuilder api --help lists them) and try again.';
    case 401:
      return 'Run `sitebuilder auth login` with a valid token.';
    case 402:
      return 'Nothing ran and nothing was charged; add AI credits to the workspace, then try again.';
    case 403:
      if (/scope/.test(msg)) return 'Create a token with that scope in the dashboard under Tokens, then run `sitebuilder auth login`.';
      if (/workspace/.test(msg)) return 'Use a token that reaches this workspace.';
      return 'Ask a workspace owner for the permission, or check the plan.';
    case 404:
      return /tool|method/.test(msg)
        ? 'Run `sitebuilder tools` to see the methods this token can use.'
        : 'Check the id; the list commands show the ones that exist.';
    case 405:
      return 'Methods are called with POST.';
    case 409:
      return 'Try again once the other work has finished.';
    case 413:
      return 'Send a smaller body (at most 150 MB).';
    case 422:
      return /idempotency/.test(msg)
        ? 'Use a new idempotency key for a different request.'
        : 'The service would not do this; see its reason above.';
    case 429:
      return info.retryAfterSeconds !== undefined
        ? `Wait ${info.retryAfterSeconds} seconds and try again.`
        : 'Wait for the quota to free up, then try again.';
    default:
      return info.status >= 500 ? 'The service failed; try again in a moment.' : '';
  }
}

export function refusalSentence(info: RefusalInfo): string {
  const what = withPeriod(info.message || `The service answered ${info.method} with HTTP ${info.status}`);
  const hint = hintFor(info);
  const rid = info.requestId ? ` (request ${info.requestId})` : '';
  return `${what}${hint ? ` ${hint}` : ''}${rid}`;
}

export function toApiError(info: RefusalInfo, sentence = refusalSentence(info)): ApiError {
  if (info.status === 401 || info.status === 403) return new AuthError(info, sentence);
  if (info.status === 429) return new RateLimitError(info, sentence);
  return new ApiError(info, sentence);
}

/** A network failure after the allowed attempts, as one sentence that says what to check. */
export function networkFailure(label: string, baseUrl: URL, err: NodeJS.ErrnoException, attempts: number): NetworkError {
  const code = err.code ?? '';
  const where = baseUrl.origin;
  const what =
    code === 'ECONNREFUSED'
      ? `Could not connect to ${where} (connection refused)`
      : code === 'ETIMEDOUT'
        ? `${label} timed out waiting for ${where}`
        : code === 'ENOTFOUND'
          ? `Could not resolve ${baseUrl.hostname}`
          : `The connection to ${where} failed during ${label} (${code || err.message})`;
  return new NetworkError(
    `${what} after ${attempts} attempt${attempts === 1 ? '' : 's'}; check the address (--base-url / SITEBUILDER_BASE_URL) and your network, then try again.`,
    { code: code || null, attempts },
  );
}
