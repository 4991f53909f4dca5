// What an answer's text says, read before anything else looks at it: a JSON object whose
// `success`, `data`, `code` and `message` are there to read (a refusal read tolerantly, a success
// that must say so), a redirect or an answer past the size cap refused, the token masked in what
// is parsed (io/mask.ts), and a refusal turned into an ApiError whose sentence says what to do.
import { type ApiError, type CliError, requestNote } from '../errors.js';
import { maskParsed, type SecretMask } from '../io/mask.js';
import type { Envelope } from './call.js';
import { formatCount } from './limits.js';
import { refusalSentence, type TokenOrigin, toApiError } from './errors.js';
import { header } from './headers.js';
import type { RawResponse } from './transport.js';

/** A redirect is never followed nor taken as a result: an error naming where it pointed. */
function redirectError(res: RawResponse, label: string, requestId: string | undefined): ApiError {
  const location = header(res.headers, 'location');
  const shown = location ? ` to ${JSON.stringify(location.slice(0, 200)).replace(/[\u007f-\u009f]/g, '')}` : '';
  return toApiError(
    { status: res.status, method: label, message: '', requestId, headers: res.headers },
    `The service answered ${label} with a redirect (HTTP ${res.status}${shown}); a redirect is never followed and nothing was taken from it. Check the base URL (--base-url / SITEBUILDER_BASE_URL).${requestNote(requestId)}`,
  );
}

/** The answer's envelope; `strict`: a success must carry `success` and `data` (envelopeProblem). */
function parseEnvelope<T>(
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
function envelopeProblem(env: Envelope): string | undefined {
  const raw = env as Record<string, unknown>;
  if (!('success' in raw)) return 'it has no `success` field';
  if (raw.success !== true) return `its \`success\` is ${JSON.stringify(raw.success)?.slice(0, 40)}, not true`;
  if (!('data' in raw)) return 'it has no `data` field';
  return undefined;
}

/**
 * The envelope of an answer that came whole: a redirect, an answer past the size cap, text that
 * is not JSON or a success that is not the service's (`strict`) are errors; `unknownOutcome`
 * marks those after which a write's effect is unknown.
 */
export function answerEnvelope<T>(
  res: RawResponse,
  label: string,
  requestId: string | undefined,
  strict: boolean,
  secrets: SecretMask,
  unknownOutcome: <E extends CliError>(err: E) => E,
): Envelope<T> {
  if (res.status >= 300 && res.status < 400) throw redirectError(res, label, requestId);
  if (res.overCap !== undefined) {
    const err = toApiError(
      { status: res.status, method: label, message: '', requestId },
      `The answer to ${label} is larger than ${formatCount(res.overCap)} bytes (HTTP ${res.status}); it was cut off and not read. Check that the base URL points at the service.${requestNote(requestId)}`,
    );
    throw res.status < 300 ? unknownOutcome(err) : err;
  }
  const envelope = parseEnvelope<T>(res, label, requestId, strict, secrets);
  const missing = res.status < 300 && envelope.success !== false && strict ? envelopeProblem(envelope) : undefined;
  if (missing)
    throw unknownOutcome(
      toApiError(
        { status: res.status, method: label, message: '', requestId, envelope },
        `The answer to ${label} is not a valid answer of the service: ${missing}; nothing was taken from it.${requestNote(requestId)}`,
      ),
    );
  return envelope;
}

/** A refusal as an ApiError whose sentence says what to do next (api/errors.ts); `site`: the projectId it was about. */
export function refusalError(
  res: RawResponse,
  envelope: Envelope,
  call: { label: string; requestId: string | undefined; retryAfter: number | undefined; site?: string },
  origin: TokenOrigin | undefined,
): ApiError {
  const { retryAfter } = call;
  const info = {
    status: res.status,
    method: call.label,
    message: typeof envelope.message === 'string' ? envelope.message : '',
    requestId: call.requestId,
    data: envelope.data,
    // Only a sane value is repeated to a person: never "wait -1 seconds".
    retryAfterSeconds:
      retryAfter !== undefined && retryAfter >= 0 && retryAfter <= 86_400 ? Math.ceil(retryAfter) : undefined,
    envelope,
    headers: res.headers,
    site: call.site,
  };
  return toApiError(info, refusalSentence(info, origin));
}
