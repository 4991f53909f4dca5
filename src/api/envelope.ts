// What an answer's text says, read before anything else looks at it: a JSON object whose
// `success`, `data`, `code` and `message` are there to read (a refusal read tolerantly, a success
// that must say so), a redirect refused, and the token masked in what is parsed (io/mask.ts).
import { type ApiError, requestNote } from '../errors.js';
import { maskParsed, type SecretMask } from '../io/mask.js';
import type { Envelope } from './call.js';
import { toApiError } from './errors.js';
import { header } from './headers.js';
import type { RawResponse } from './transport.js';

/** A redirect is never followed nor taken as a result: an error naming where it pointed. */
export function redirectError(res: RawResponse, label: string, requestId: string | undefined): ApiError {
  const location = header(res.headers, 'location');
  const shown = location ? ` to ${JSON.stringify(location.slice(0, 200)).replace(/[\u007f-\u009f]/g, '')}` : '';
  return toApiError(
    { status: res.status, method: label, message: '', requestId, headers: res.headers },
    `The service answered ${label} with a redirect (HTTP ${res.status}${shown}); a redirect is never followed and nothing was taken from it. Check the base URL (--base-url / SITEBUILDER_BASE_URL).${requestNote(requestId)}`,
  );
}

/** The answer's envelope; `strict`: a success must carry `success` and `data` (envelopeProblem). */
export function parseEnvelope<T>(
  res: RawResponse,
  label: string,
  requestId: string | undefined,
  strict: boolean,
  secrets: SecretMask,
): Envelope<T> {
  let parsed: unknown;
  try {
    parsed = maskParsed(JSON.parse(res.body), res.body, secrets);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const type = header(res.headers, 'content-type') ?? 'no content type';
    throw toApiError(
      {
        status: res.status,
        method: label,
        message: '',
        requestId,
      },
      `The service answered ${label} with something that is not JSON (HTTP ${res.status}, ${type}); check that the base URL points at the service and not at a proxy or web page.${requestNote(requestId)}`,
    );
  }
  const env = parsed as Envelope<T>;
  // A success must say so (envelopeProblem); a refusal is read tolerantly: missing optional
  // fields never crash, unknown fields are kept.
  if (res.status >= 300 || !strict) {
    if (typeof env.success !== 'boolean') env.success = res.status < 300;
    if (!('data' in env)) (env as { data: unknown }).data = null;
  }
  if (typeof env.code !== 'number') env.code = res.status;
  if (typeof env.message !== 'string') env.message = '';
  return env;
}

/** What makes a 2xx answer not an answer of the service: `success` must be true and `data` present. */
export function envelopeProblem(env: Envelope): string | undefined {
  const raw = env as Record<string, unknown>;
  if (!('success' in raw)) return 'it has no `success` field';
  if (raw.success !== true) return `its \`success\` is ${JSON.stringify(raw.success)?.slice(0, 40)}, not true`;
  if (!('data' in raw)) return 'it has no `data` field';
  return undefined;
}
