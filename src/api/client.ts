// The one transport (docs/scripting.md "How calls are made"): POST {base}/v1/<method>, JSON
// body, Bearer token, an Idempotency-Key on every write reused by its retries, bounded jittered
// retries, a timeout on every request, one keep-alive connection, and the rate budget tracked
// from the X-RateLimit-* headers.
import type { Agent, IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../clock.js';
import { requestNote, UsageError, type ApiError } from '../errors.js';
import { checkBaseUrl } from './base-url.js';
import { networkFailure, refusalSentence, toApiError, type TokenOrigin } from './errors.js';
import { methodInfo } from './method-index.js';
import { checkArgsAgainstSchema } from './validate.js';

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
  /** Skip the registry's validation (the api passthrough still validates known methods). */
  skipValidation?: boolean;
  /** Extra headers (the api passthrough's -H). */
  headers?: Record<string, string>;
}

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  clock: Clock;
  userAgent?: string;
  debug?: (line: string) => void;
  timeoutMs?: number;
  maxAttempts?: number;
  /** The longest a 429 is waited out before giving up with exit 7. */
  maxRateLimitWaitMs?: number;
  /** The longest all retries of one call may take together. */
  maxRetryTimeMs?: number;
  /** Seeds jitter in tests. */
  random?: () => number;
  /** How the token was given (flag, environment, profile): a 401 names the right fix. */
  tokenOrigin?: TokenOrigin;
  /** Told of a retry a person would otherwise wait through in silence (a time-out, a 429 wait). */
  notice?: (line: string) => void;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
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

export class ApiClient {
  readonly baseUrl: URL;
  budget: RateBudget;
  private readonly opts: Required<Omit<ClientOptions, 'token' | 'debug' | 'userAgent' | 'tokenOrigin' | 'notice'>> &
    ClientOptions;
  private agent?: Agent;
  private requestModule?: typeof import('node:http');

  constructor(opts: ClientOptions) {
    this.baseUrl = checkBaseUrl(opts.baseUrl);
    this.opts = {
      timeoutMs: 30_000,
      maxAttempts: 4,
      maxRateLimitWaitMs: 60_000,
      maxRetryTimeMs: 90_000,
      random: Math.random,
      ...opts,
    };
    this.budget = { at: opts.clock.now() };
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
    if (spec && !options.skipValidation) {
      const problem = checkArgsAgainstSchema(method, spec.schema, args);
      if (problem) throw new UsageError(`Not sent: ${problem.message}`, { method, argument: problem.path });
    }
    const isWrite = spec ? spec.write : true;
    // The global Web Crypto: importing node:crypto into an ES module costs start-up time.
    const key = options.idempotencyKey ?? (isWrite ? globalThis.crypto.randomUUID() : undefined);
    if (key !== undefined && !/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw new UsageError('Not sent: an idempotency key must be 1 to 255 visible characters.');
    }
    const body = JSON.stringify(args);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (key !== undefined) headers['idempotency-key'] = key;
    return this.withRetries<T>(
      method,
      'POST',
      `/v1/${method}`,
      body,
      headers,
      Boolean(key) || !isWrite,
      options.signal,
      key,
    );
  }

  /** One of the GET discovery addresses: /v1/token, /v1/tools, /v1/openapi.json. */
  async get<T = unknown>(path: string, signal?: AbortSignal): Promise<CallResult<T>> {
    return this.withRetries<T>(path, 'GET', path, undefined, {}, true, signal);
  }

  close(): void {
    this.agent?.destroy();
  }

  private async withRetries<T>(
    label: string,
    verb: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
    retrySafe: boolean,
    signal: AbortSignal | undefined,
    key?: string,
  ): Promise<CallResult<T>> {
    const { clock } = this.opts;
    const started = clock.now();
    let rateWaited = 0;
    for (let attempt = 1; ; attempt++) {
      const t0 = clock.now();
      let res: RawResponse;
      try {
        res = await this.send(verb, path, body, headers, signal);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const code = (err as NodeJS.ErrnoException).code ?? '';
        // A refused connection sent nothing, so even a write without a key may be retried.
        const canRetry = retrySafe || code === 'ECONNREFUSED';
        this.debug(
          `${verb} ${label} → network error ${code || (err as Error).message} after ${clock.now() - t0}ms (attempt ${attempt})`,
        );
        // A time-out already cost a whole timeoutMs: one more try, not three.
        const attemptsFor = code === 'ETIMEDOUT' ? Math.min(2, this.opts.maxAttempts) : this.opts.maxAttempts;
        if (canRetry && attempt < attemptsFor && clock.now() - started < this.opts.maxRetryTimeMs) {
          if (code === 'ETIMEDOUT')
            this.opts.notice?.(
              `No answer from ${this.baseUrl.host} in ${Math.round(this.opts.timeoutMs / 1000)} s; trying ${label} once more.`,
            );
          await clock.sleep(this.backoff(attempt), signal);
          continue;
        }
        throw networkFailure(label, this.baseUrl, err as NodeJS.ErrnoException, attempt);
      }
      this.trackBudget(res.headers);
      const requestId = header(res.headers, 'x-request-id');
      this.debug(
        `${verb} ${label} → ${res.status} in ${clock.now() - t0}ms request=${requestId ?? '-'} remaining=${this.budget.remaining ?? '-'}${key ? ` key=${key}` : ''}`,
      );
      const envelope = this.parse<T>(res, label, requestId);
      if (res.status < 400 && envelope.success !== false) {
        return {
          envelope,
          status: res.status,
          headers: res.headers,
          requestId,
          attempts: attempt,
          idempotencyKey: key,
        };
      }
      const retryAfter = num(header(res.headers, 'retry-after'));
      const info = {
        status: res.status,
        method: label,
        message: typeof envelope.message === 'string' ? envelope.message : '',
        requestId,
        data: envelope.data,
        retryAfterSeconds: retryAfter,
        envelope,
        headers: res.headers,
      };
      const error = toApiError(info, refusalSentence(info, this.opts.tokenOrigin));
      const wait = this.retryDelay(res.status, envelope, retryAfter, retrySafe, attempt, Boolean(key));
      if (wait !== undefined) {
        const isRate = res.status === 429;
        const elapsed = clock.now() - started;
        const withinBudget = isRate
          ? rateWaited + wait <= this.opts.maxRateLimitWaitMs
          : attempt < this.opts.maxAttempts && elapsed + wait <= this.opts.maxRetryTimeMs;
        if (withinBudget) {
          if (isRate) rateWaited += wait;
          if (isRate && wait >= 3000)
            this.opts.notice?.(`Rate limit reached; waiting ${Math.ceil(wait / 1000)} s before ${label}.`);
          this.debug(`retrying ${label} in ${wait}ms`);
          await clock.sleep(wait, signal);
          continue;
        }
      }
      throw error;
    }
  }

  /** How long to wait before retrying this answer, or undefined when it must not be retried. */
  private retryDelay(
    status: number,
    envelope: Envelope,
    retryAfter: number | undefined,
    retrySafe: boolean,
    attempt: number,
    hasKey: boolean,
  ): number | undefined {
    if (status === 429) {
      // A quota (queue caps) carries no Retry-After: waiting a few seconds would not help.
      if (retryAfter === undefined) return undefined;
      return Math.ceil(retryAfter * 1000) + Math.floor(this.opts.random() * 250);
    }
    if (status >= 500 && retrySafe) return this.backoff(attempt);
    if (status === 409 && hasKey && /idempotency|in flight/i.test(String(envelope.message ?? '')))
      return this.backoff(attempt);
    return undefined;
  }

  private backoff(attempt: number): number {
    const cap = Math.min(8_000, 400 * 2 ** (attempt - 1));
    return Math.floor(cap / 2 + this.opts.random() * (cap / 2));
  }

  private trackBudget(h: IncomingHttpHeaders): void {
    const limit = num(header(h, 'x-ratelimit-limit'));
    const remaining = num(header(h, 'x-ratelimit-remaining'));
    const reset = num(header(h, 'x-ratelimit-reset'));
    if (limit === undefined && remaining === undefined && reset === undefined) return;
    this.budget = { limit, remaining, resetSeconds: reset, at: this.opts.clock.now() };
  }

  private parse<T>(res: RawResponse, label: string, requestId: string | undefined): Envelope<T> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
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
    // Tolerant: missing optional fields never crash; unknown fields are kept.
    if (typeof env.success !== 'boolean') env.success = res.status < 400;
    if (typeof env.code !== 'number') env.code = res.status;
    if (typeof env.message !== 'string') env.message = '';
    if (!('data' in env)) (env as { data: unknown }).data = null;
    return env;
  }

  private async send(
    verb: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<RawResponse> {
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
    if (signal?.aborted) throw signal.reason;
    const base = this.baseUrl.pathname.replace(/\/+$/, '');
    const all: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'sitebuilder',
      ...headers,
    };
    if (this.opts.token) all.authorization = `Bearer ${this.opts.token}`;
    if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
    return new Promise<RawResponse>((resolve, reject) => {
      const req = mod.request(
        {
          protocol: this.baseUrl.protocol,
          hostname: this.baseUrl.hostname.replace(/^\[|\]$/g, ''),
          port: this.baseUrl.port || undefined,
          method: verb,
          path: `${base}${path}`,
          headers: all,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
          res.on('aborted', () => reject(Object.assign(new Error('answer cut off'), { code: 'ECONNRESET' })));
        },
      );
      req.setTimeout(this.opts.timeoutMs, () => {
        req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' }));
      });
      req.on('error', reject);
      // Ctrl-C ends the call. (Not http's `signal` option: it loads stream helpers at start-up.)
      if (signal) {
        const abort = () => req.destroy(signal.reason as Error);
        signal.addEventListener('abort', abort, { once: true });
        req.once('close', () => signal.removeEventListener('abort', abort));
      }
      req.end(body);
    });
  }

  private debug(line: string): void {
    this.opts.debug?.(line);
  }
}

export type { ApiError };
