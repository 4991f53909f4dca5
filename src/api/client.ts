// The one transport (docs/scripting.md "How calls are made"): POST {base}/v1/<method>, JSON
// body, Bearer token, an Idempotency-Key on every write reused by its retries, bounded retries,
// one keep-alive connection, and the rate budget tracked from the X-RateLimit-* headers.
// Every request has hard bounds, whatever the server does: a total deadline (not an idle
// timer), a cap on the answer's size, no redirect followed or taken as a result, an envelope
// that must say success, a Retry-After clamped, and a bounded wait for a first call in flight.
import { parseTime } from '../service/time.js';
import type { Agent, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Clock } from '../clock.js';
import { type ApiError, CliError, requestNote, UsageError } from '../errors.js';
import { checkBaseUrl, isLoopbackHost } from './base-url.js';
import { type Body, bodyBytes, checkedArgs, encodeBody, type SentListener, writeBody } from './body-stream.js';
import {
  duration,
  networkFailure,
  addressHint,
  refusalSentence,
  toApiError,
  type TokenOrigin,
  withUnknownOutcome,
} from './errors.js';
import { maskHeaders, maskParsed, SecretMask } from '../io/mask.js';
import { formatCount, isIdempotencyKey, LIMITS } from './limits.js';
import { methodInfo } from './method-index.js';
import { checkArgsForSending } from './validate.js';

export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
  code: number;
  version?: string;
  count?: number;
  [extra: string]: unknown;
}

export interface CallResult<T = unknown> {
  envelope: Envelope<T>;
  status: number;
  headers: IncomingHttpHeaders;
  requestId?: string;
  attempts: number;
  idempotencyKey?: string;
}

export interface RateBudget {
  limit?: number;
  remaining?: number;
  /** Seconds until the minute ends, as of `at`. */
  resetSeconds?: number;
  at: number;
}

export interface CallOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Skip the registry's checks of stated arguments (the limits every body has still apply). */
  skipValidation?: boolean;
  /** Extra headers (the api passthrough's -H). */
  headers?: Record<string, string>;
  /** The shortest wait before a retry: a poller's floor (docs/real-service.md "Polling"). */
  retryFloorMs?: number;
  /** Tries of a call after network errors and 5xx (1: none again): a poller that retries on its own (api/poll.ts). */
  maxAttempts?: number;
  /** Its place in the queue of a gate (a poll of a run, a start); by default a write is a start, a read a call. */
  ticket?: CallTicket;
  /** Told as a streamed body (an argument that is a StreamedString: api/body-stream.ts) goes out. */
  onSent?: SentListener;
}

/** What a call is to a gate (api/scheduler.ts): the start of some work, another call, or a poll of one run (its lane). */
export interface CallTicket {
  kind: 'start' | 'call' | 'poll';
  /** The run, publish or restore a poll reads: its floor and its fair share are kept per lane. */
  lane?: string;
}

/**
 * Decides when each attempt of a call goes out (a process working on many sites shares one
 * budget: api/scheduler.ts). The function it gives is called once the attempt is over, with the
 * answer's status (undefined: no answer) and, on a 429 from the minute's budget (one with a
 * Retry-After), how long the service asked to wait.
 */
export interface CallGate {
  acquire(ticket: CallTicket, signal?: AbortSignal): Promise<CallOver>;
}

export type CallOver = (status?: number, retryAfterMs?: number) => void;

/** The bounds of the transport (docs/scripting.md "How calls are made"). */
export const TRANSPORT_BOUNDS = {
  /** The total deadline of one request: the whole answer must have arrived by then. */
  timeoutMs: 30_000,
  /** Large bodies get more time: the slowest link given time for, in bytes a second (1 Mbit/s). */
  slowLinkBytesPerSecond: 128 * 1024,
  /** The largest answer read; far above any listing page or record. */
  answerMaxBytes: 64 * 1024 * 1024,
  /** Methods that answer with file contents: a 100 MiB upload read back as base64, with room. */
  fileAnswerMaxBytes: 160 * 1024 * 1024,
  /** How long a 409 "in flight" on our own key is waited out for the first call's answer. */
  inFlightWaitMs: 120_000,
  /** The longest all 429 waits of one call may take together. */
  rateLimitWaitMs: 60_000,
  /** A Retry-After below this (0, negative) is waited this long: never a tight loop. */
  retryAfterFloorMs: 1_000,
  /** A malformed Retry-After (and no usable X-RateLimit-Reset) is waited this long. */
  retryAfterFallbackMs: 5_000,
  /** 429s retried at most this many times per call. */
  rateLimitRetries: 5,
} as const;

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  clock: Clock;
  userAgent?: string;
  debug?: (line: string) => void;
  /** The total deadline of one request (real time: sockets do not follow an injected clock). */
  timeoutMs?: number;
  maxAttempts?: number;
  /** The longest a 429 is waited out before giving up with exit 7. */
  maxRateLimitWaitMs?: number;
  /** The longest all retries after network errors and 5xx of one call may take together. */
  maxRetryTimeMs?: number;
  /** The longest a first call still in flight (409 on our own key) is waited for. */
  maxInFlightWaitMs?: number;
  /** The largest answer read (file-carrying methods get fileAnswerMaxBytes when larger). */
  maxAnswerBytes?: number;
  /** The largest body sent: the service's limit (LIMITS.bodyBytesMax); smaller in tests. */
  maxBodyBytes?: number;
  /** Seeds jitter in tests. */
  random?: () => number;
  /** How the token was given (flag, environment, profile): a 401 names the right fix. */
  tokenOrigin?: TokenOrigin;
  /** Where the address came from, in words ("profile prod"): a network failure names it. */
  addressOrigin?: string;
  /** Told of a retry a person would otherwise wait through in silence (a time-out, a 429 wait). */
  notice?: (line: string) => void;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The answer passed the size cap: it was cut off and not read. */
  overCap?: number;
}

interface Request {
  label: string;
  verb: 'GET' | 'POST';
  path: string;
  body?: Body;
  headers: Record<string, string>;
  /** A retry cannot do the work twice (a read, or a write with its key). */
  retrySafe: boolean;
  /** A write: when it fails without a clear refusal, its effect is unknown. */
  write: boolean;
  /** GET discovery addresses may answer a bare document (their payload is not shown). */
  envelopeRequired: boolean;
  answerCap: number;
  signal?: AbortSignal;
  key?: string;
  retryFloorMs?: number;
  maxAttempts?: number;
  /** The site the call is about (its projectId), for the commands a refusal may point to. */
  site?: string;
  ticket: CallTicket;
  onSent?: SentListener;
}

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

const num = (v: string | undefined): number | undefined => {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** Retry-After as seconds from now (seconds, or an HTTP date); undefined when malformed. May be negative. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^[-+]?\d+(\.\d+)?$/.test(v)) return Number(v);
  const date = /[a-z]/i.test(v) ? (parseTime(v) ?? Number.NaN) : Number.NaN;
  return Number.isFinite(date) ? (date - now) / 1000 : undefined;
}

const isInFlight = (envelope: Envelope): boolean =>
  /idempotency|in flight/i.test(String(envelope.message ?? '')) ||
  (envelope.data as { reason?: unknown } | null)?.reason === 'idempotency-in-flight';

/** Network failures where the request surely never reached the service. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export class ApiClient {
  readonly baseUrl: URL;
  budget: RateBudget;
  /** Every attempt waits for its turn here when set (the batch commands set one). */
  gate?: CallGate;
  private readonly opts: Required<
    Omit<ClientOptions, 'token' | 'debug' | 'userAgent' | 'tokenOrigin' | 'addressOrigin' | 'notice'>
  > &
    ClientOptions;
  private agent?: Agent;
  private requestModule?: typeof import('node:http');
  /** The token, masked in every answer before anything reads it: an echo of it is never printed. */
  private readonly secrets = new SecretMask();

  constructor(opts: ClientOptions) {
    this.baseUrl = checkBaseUrl(opts.baseUrl);
    // A faster clock would poll faster than the service allows: for the emulator only.
    if ((opts.clock.speed ?? 1) !== 1 && !isLoopbackHost(this.baseUrl.hostname))
      throw new UsageError(
        `SITEBUILDER_CLOCK_SPEED is for the emulator on a loopback address, not ${this.baseUrl.hostname}; unset it.`,
      );
    this.opts = {
      timeoutMs: TRANSPORT_BOUNDS.timeoutMs,
      maxAttempts: 4,
      maxRateLimitWaitMs: TRANSPORT_BOUNDS.rateLimitWaitMs,
      maxRetryTimeMs: 90_000,
      maxInFlightWaitMs: TRANSPORT_BOUNDS.inFlightWaitMs,
      maxAnswerBytes: TRANSPORT_BOUNDS.answerMaxBytes,
      maxBodyBytes: LIMITS.bodyBytesMax,
      random: Math.random,
      ...opts,
    };
    this.budget = { at: opts.clock.now() };
    this.secrets.add(opts.token);
  }

  get hasToken(): boolean {
    return Boolean(this.opts.token);
  }

  /** Calls a method of the service. Throws UsageError (nothing sent), ApiError or NetworkError. */
  async call<T = unknown>(
    method: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<CallResult<T>> {
    const spec = methodInfo(method);
    // What the spec states is checked here (docs/scripting.md "How calls are made"); what the
    // registry only guesses is left to the service, which refuses a bad argument with 400.
    const problem = checkArgsForSending(
      method,
      spec && !options.skipValidation ? spec.schema : undefined,
      checkedArgs(args),
    );
    if (problem) throw new UsageError(`Not sent: ${problem.message}`, { method, argument: problem.path });
    const isWrite = spec ? spec.write : true;
    // The global Web Crypto: importing node:crypto into an ES module costs start-up time.
    const key = options.idempotencyKey ?? (isWrite ? globalThis.crypto.randomUUID() : undefined);
    if (key !== undefined && !isIdempotencyKey(key)) {
      throw new UsageError('Not sent: an idempotency key must be 1 to 255 visible characters.');
    }
    // A file's content is streamed as it is encoded (body-stream.ts); its length is known now.
    const body = encodeBody(args);
    if (bodyBytes(body) > this.opts.maxBodyBytes) {
      throw new UsageError(
        `Not sent: the body is ${formatCount(bodyBytes(body))} bytes; the service takes at most ${formatCount(this.opts.maxBodyBytes)} (150 MB).`,
        { method },
      );
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (key !== undefined) headers['idempotency-key'] = key;
    return this.withRetries<T>({
      label: method,
      verb: 'POST',
      path: `/v1/${method}`,
      body,
      headers,
      retrySafe: Boolean(key) || !isWrite,
      write: isWrite,
      envelopeRequired: true,
      answerCap: Math.max(this.opts.maxAnswerBytes, spec?.largeAnswer ? TRANSPORT_BOUNDS.fileAnswerMaxBytes : 0),
      signal: options.signal,
      key,
      retryFloorMs: options.retryFloorMs,
      maxAttempts: options.maxAttempts,
      site: typeof args.projectId === 'string' ? args.projectId : undefined,
      ticket: options.ticket ?? { kind: isWrite ? 'start' : 'call' },
      onSent: options.onSent,
    });
  }

  /** One of the GET discovery addresses: /v1/token, /v1/tools, /v1/openapi.json. */
  async get<T = unknown>(path: string, signal?: AbortSignal): Promise<CallResult<T>> {
    return this.withRetries<T>({
      label: path,
      verb: 'GET',
      path,
      headers: {},
      retrySafe: true,
      write: false,
      envelopeRequired: false,
      answerCap: this.opts.maxAnswerBytes,
      signal,
      ticket: { kind: 'call' },
    });
  }

  close(): void {
    this.agent?.destroy();
  }

  private async withRetries<T>(r: Request): Promise<CallResult<T>> {
    const { clock } = this.opts;
    const { label, signal, key } = r;
    const started = clock.now();
    let rateWaited = 0;
    let rateRetries = 0;
    let timeouts = 0;
    let failures = 0;
    let inFlightSince: number | undefined;
    let inFlightPolls = 0;
    const maxAttempts = r.maxAttempts ?? this.opts.maxAttempts;
    /** A failed write whose effect is unknown says so, with its key. */
    const unknownOutcome = <E extends CliError>(err: E): E =>
      r.write && key !== undefined ? withUnknownOutcome(err, label, key) : err;
    for (let attempt = 1; ; attempt++) {
      const over = this.gate ? await this.gate.acquire(r.ticket, signal) : undefined;
      const t0 = clock.now();
      let res: RawResponse;
      try {
        res = this.masked(await this.send(r));
      } catch (err) {
        over?.();
        if (signal?.aborted) throw signal.reason;
        // The body could not be produced (a file that changed): nothing more to send.
        if (err instanceof CliError) throw err;
        const code = (err as NodeJS.ErrnoException).code ?? '';
        // A refused connection sent nothing, so even a write without a key may be retried.
        const canRetry = r.retrySafe || NOT_SENT.has(code);
        this.debug(
          `${r.verb} ${label} → network error ${code || (err as Error).message} after ${clock.now() - t0}ms (attempt ${attempt})`,
        );
        // A time-out already cost a whole deadline: one more try, not three.
        const mayRetry = code === 'ETIMEDOUT' ? timeouts < 1 && failures < maxAttempts - 1 : failures < maxAttempts - 1;
        if (canRetry && mayRetry && clock.now() - started < this.opts.maxRetryTimeMs) {
          failures++;
          if (code === 'ETIMEDOUT') {
            timeouts++;
            this.opts.notice?.(
              `No complete answer from ${this.baseUrl.host} within ${duration(this.opts.timeoutMs)}; trying ${label} once more.`,
            );
          }
          await clock.sleep(Math.max(this.backoff(failures), r.retryFloorMs ?? 0), signal);
          continue;
        }
        const failure = networkFailure(
          label,
          this.baseUrl,
          err as NodeJS.ErrnoException,
          attempt,
          this.opts.timeoutMs,
          this.opts.addressOrigin,
        );
        throw NOT_SENT.has(code) ? failure : unknownOutcome(failure);
      }
      this.trackBudget(res.headers);
      over?.(res.status, res.status === 429 ? this.budgetWait(res.headers) : undefined);
      const requestId = header(res.headers, 'x-request-id');
      this.debug(
        `${r.verb} ${label} → ${res.status} in ${clock.now() - t0}ms request=${requestId ?? '-'} remaining=${this.budget.remaining ?? '-'}${key ? ` key=${key}` : ''}`,
      );
      if (res.status >= 300 && res.status < 400) throw this.redirectError(res, label, requestId);
      if (res.overCap !== undefined) {
        const err = toApiError(
          { status: res.status, method: label, message: '', requestId },
          `The answer to ${label} is larger than ${formatCount(res.overCap)} bytes (HTTP ${res.status}); it was cut off and not read. Check that the base URL points at the service.${requestNote(requestId)}`,
        );
        throw res.status < 300 ? unknownOutcome(err) : err;
      }
      const envelope = this.parse<T>(res, label, requestId, r.envelopeRequired);
      if (res.status < 300 && envelope.success !== false) {
        const missing = r.envelopeRequired ? envelopeProblem(envelope) : undefined;
        if (missing) {
          throw unknownOutcome(
            toApiError(
              { status: res.status, method: label, message: '', requestId, envelope },
              `The answer to ${label} is not a valid answer of the service: ${missing}; nothing was taken from it.${requestNote(requestId)}`,
            ),
          );
        }
        return {
          envelope,
          status: res.status,
          headers: res.headers,
          requestId,
          attempts: attempt,
          idempotencyKey: key,
        };
      }
      const rawRetryAfter = header(res.headers, 'retry-after');
      const retryAfter = parseRetryAfter(rawRetryAfter, clock.now());
      const info = {
        status: res.status,
        method: label,
        message: typeof envelope.message === 'string' ? envelope.message : '',
        requestId,
        data: envelope.data,
        // Only a sane value is repeated to a person: never "wait -1 seconds".
        retryAfterSeconds:
          retryAfter !== undefined && retryAfter >= 0 && retryAfter <= 86_400 ? Math.ceil(retryAfter) : undefined,
        envelope,
        headers: res.headers,
        site: r.site,
      };
      const error = toApiError(info, refusalSentence(info, this.opts.tokenOrigin));

      if (res.status === 429) {
        // A quota (queue caps) carries no Retry-After: waiting a few seconds would not help.
        if (rawRetryAfter === undefined) throw error;
        const wait = this.rateLimitWait(retryAfter, res.headers);
        if (rateRetries < TRANSPORT_BOUNDS.rateLimitRetries && rateWaited + wait <= this.opts.maxRateLimitWaitMs) {
          rateRetries++;
          rateWaited += wait;
          if (wait >= 3000)
            this.opts.notice?.(`Rate limit reached; waiting ${Math.ceil(wait / 1000)} s before ${label}.`);
          this.debug(`retrying ${label} in ${wait}ms (Retry-After ${JSON.stringify(rawRetryAfter)})`);
          await clock.sleep(wait, signal);
          continue;
        }
        throw error;
      }

      if (res.status === 409 && key !== undefined && isInFlight(envelope)) {
        // Our own key, still running: the first call (perhaps one that timed out here) goes on
        // at the service. Wait for its answer instead of giving up: a re-run would do it twice.
        inFlightSince ??= clock.now();
        const waited = clock.now() - inFlightSince;
        const left = this.opts.maxInFlightWaitMs - waited;
        if (left > 0) {
          if (inFlightPolls === 0)
            this.opts.notice?.(
              `${label} is still running from the first attempt; waiting up to ${duration(this.opts.maxInFlightWaitMs)} for its answer.`,
            );
          const wait = Math.min(this.inFlightBackoff(inFlightPolls++), left);
          this.debug(`${label} in flight; asking again in ${wait}ms`);
          await clock.sleep(wait, signal);
          continue;
        }
        throw unknownOutcome(
          error.withSentence(
            `The first ${label} call was still running after ${duration(this.opts.maxInFlightWaitMs)} of waiting for it (HTTP 409 in flight).`,
          ),
        );
      }

      if (res.status >= 500 && r.retrySafe) {
        const wait = Math.max(this.backoff(failures + 1), r.retryFloorMs ?? 0);
        if (failures < maxAttempts - 1 && clock.now() - started + wait <= this.opts.maxRetryTimeMs) {
          failures++;
          this.debug(`retrying ${label} in ${wait}ms`);
          await clock.sleep(wait, signal);
          continue;
        }
      }
      throw res.status >= 500 ? unknownOutcome(error) : error;
    }
  }

  /** How long a 429 is waited: Retry-After exactly, clamped; a malformed one falls back. */
  /** A 429 from the minute's budget (it carries Retry-After): the wait it asks for. */
  private budgetWait(headers: IncomingHttpHeaders): number | undefined {
    const raw = header(headers, 'retry-after');
    return raw === undefined ? undefined : this.rateLimitWait(parseRetryAfter(raw, this.opts.clock.now()), headers);
  }

  /**
   * The service's seconds (Retry-After, X-RateLimit-Reset) are wall seconds; a clock run faster
   * (SITEBUILDER_CLOCK_SPEED, against the emulator at that --speed) counts that many of its own.
   */
  private get wallSpeed(): number {
    return this.opts.clock.speed ?? 1;
  }

  private rateLimitWait(retryAfter: number | undefined, headers: IncomingHttpHeaders): number {
    let ms: number;
    if (retryAfter !== undefined) ms = retryAfter * 1000 * this.wallSpeed;
    else {
      const reset = num(header(headers, 'x-ratelimit-reset'));
      ms =
        reset !== undefined && reset > 0 && reset <= 60
          ? reset * 1000 * this.wallSpeed
          : TRANSPORT_BOUNDS.retryAfterFallbackMs;
    }
    return Math.ceil(Math.max(TRANSPORT_BOUNDS.retryAfterFloorMs, ms));
  }

  private backoff(attempt: number): number {
    const cap = Math.min(8_000, 400 * 2 ** (attempt - 1));
    return Math.floor(cap / 2 + this.opts.random() * (cap / 2));
  }

  /** 1, 2, 4, 8, 8, … seconds (less a jitter of up to a quarter). */
  private inFlightBackoff(poll: number): number {
    const cap = Math.min(8_000, 1_000 * 2 ** poll);
    return Math.floor(cap * (0.75 + this.opts.random() * 0.25));
  }

  private trackBudget(h: IncomingHttpHeaders): void {
    const limit = num(header(h, 'x-ratelimit-limit'));
    const remaining = num(header(h, 'x-ratelimit-remaining'));
    const reset = num(header(h, 'x-ratelimit-reset'));
    if (limit === undefined && remaining === undefined && reset === undefined) return;
    // The minute is 60 seconds long: a reset outside it is not believed.
    const resetSeconds = reset === undefined ? undefined : Math.min(60, Math.max(0, reset * this.wallSpeed));
    this.budget = { limit, remaining, resetSeconds, at: this.opts.clock.now() };
  }

  private redirectError(res: RawResponse, label: string, requestId: string | undefined): ApiError {
    const location = header(res.headers, 'location');
    const shown = location ? ` to ${JSON.stringify(location.slice(0, 200)).replace(/[\u007f-\u009f]/g, '')}` : '';
    return toApiError(
      { status: res.status, method: label, message: '', requestId, headers: res.headers },
      `The service answered ${label} with a redirect (HTTP ${res.status}${shown}); a redirect is never followed and nothing was taken from it. Check the base URL (${addressHint(this.opts.addressOrigin)}).${requestNote(requestId)}`,
    );
  }

  private parse<T>(res: RawResponse, label: string, requestId: string | undefined, strict: boolean): Envelope<T> {
    let parsed: unknown;
    try {
      parsed = maskParsed(JSON.parse(res.body), res.body, this.secrets);
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

  private async send(r: Request): Promise<RawResponse> {
    if (!this.requestModule) {
      const https = this.baseUrl.protocol === 'https:';
      // `.default`: the module object itself, whether loaded natively or through the bundle.
      this.requestModule = https
        ? ((await import('node:https')).default as unknown as typeof import('node:http'))
        : (await import('node:http')).default;
      // One keep-alive connection per process: calls queue behind each other.
      this.agent = new this.requestModule.Agent({ keepAlive: true, maxSockets: 1 });
    }
    const mod = this.requestModule;
    const { signal, body } = r;
    if (signal?.aborted) throw signal.reason;
    const base = this.baseUrl.pathname.replace(/\/+$/, '');
    const all: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'sitebuilder',
      ...r.headers,
    };
    if (this.opts.token) all.authorization = `Bearer ${this.opts.token}`;
    const length = bodyBytes(body);
    if (body !== undefined) all['content-length'] = String(length);
    const allowance = (bytes: number) => Math.ceil((bytes / TRANSPORT_BOUNDS.slowLinkBytesPerSecond) * 1000);
    return new Promise<RawResponse>((resolve, reject) => {
      let settled = false;
      let response: IncomingMessage | undefined;
      const startedAt = Date.now();
      // The deadline covers everything up to the last byte of the answer: a server that drips
      // a byte at a time cannot keep the call alive. Large bodies get the time a slow link needs.
      let deadline = this.opts.timeoutMs + allowance(length);
      const expire = () =>
        fail(
          Object.assign(new Error(`no complete answer within ${deadline} ms`), {
            code: 'ETIMEDOUT',
          }),
        );
      let timer = setTimeout(expire, deadline);
      const done = (value: RawResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Answered before the whole body went out: the rest is not sent, the connection not reused.
        if (!req.writableEnded) req.destroy();
        resolve(value);
      };
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        response?.destroy();
        req.destroy();
        reject(err);
      };
      const req = mod.request(
        {
          protocol: this.baseUrl.protocol,
          hostname: this.baseUrl.hostname.replace(/^\[|\]$/g, ''),
          port: this.baseUrl.port || undefined,
          method: r.verb,
          path: `${base}${r.path}`,
          headers: all,
          agent: this.agent,
        },
        (res) => {
          response = res;
          const status = res.statusCode ?? 0;
          const declared = num(header(res.headers, 'content-length'));
          if (declared !== undefined && declared > r.answerCap) {
            done({ status, headers: res.headers, body: '', overCap: r.answerCap });
            return void res.destroy();
          }
          if (declared !== undefined && declared > 0) {
            clearTimeout(timer);
            deadline += allowance(declared);
            timer = setTimeout(expire, Math.max(0, deadline - (Date.now() - startedAt)));
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            // Counted as it streams: nothing past the cap is ever held.
            if (size > r.answerCap) {
              chunks.length = 0;
              done({ status, headers: res.headers, body: '', overCap: r.answerCap });
              return void res.destroy();
            }
            chunks.push(c);
          });
          res.on('end', () => done({ status, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', fail);
          res.on('aborted', () => fail(Object.assign(new Error('answer cut off'), { code: 'ECONNRESET' })));
        },
      );
      req.on('error', fail);
      // Ctrl-C ends the call. (Not http's `signal` option: it loads stream helpers at start-up.)
      if (signal) {
        const abort = () => fail(signal.reason as Error);
        signal.addEventListener('abort', abort, { once: true });
        req.once('close', () => signal.removeEventListener('abort', abort));
      }
      writeBody(req, body, r.onSent);
    });
  }

  /** The answer with the token masked in its text and headers (mask.ts). */
  private masked(res: RawResponse): RawResponse {
    return { ...res, headers: maskHeaders(res.headers, this.secrets), body: this.secrets.apply(res.body) };
  }

  private debug(line: string): void {
    this.opts.debug?.(line);
  }
}

/** What makes a 2xx answer not an answer of the service: `success` must be true and `data` present. */
function envelopeProblem(env: Envelope): string | undefined {
  const raw = env as Record<string, unknown>;
  if (!('success' in raw)) return 'it has no `success` field';
  if (raw.success !== true) return `its \`success\` is ${JSON.stringify(raw.success)?.slice(0, 40)}, not true`;
  if (!('data' in raw)) return 'it has no `data` field';
  return undefined;
}

export type { ApiError };
