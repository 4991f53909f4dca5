// The one client of the service (docs/scripting.md "How calls are made"): POST {base}/v1/<method>,
// JSON body, Bearer token, an Idempotency-Key on every write reused by its retries, and the rate
// budget tracked from the X-RateLimit-* headers. A call's arguments are checked against the
// method index before anything is sent; transport.ts sends one request within hard bounds,
// envelope.ts reads the answer, and a failed attempt goes on in retry-call.ts, which tries again
// as retry.ts decides or turns the failure into the call's error (errors.ts words it).
import type { IncomingHttpHeaders } from 'node:http';
import { type ApiError, CliError, UsageError } from '../errors.js';
import { SecretMask, maskHeaders } from '../io/mask.js';
import { checkBaseUrl, isLoopbackHost } from './base-url.js';
import { bodyBytes, checkedArgs, encodeBody } from './body-stream.js';
import type { CallGate, CallOptions, CallResult, CallTicket, RateBudget } from './call.js';
import { type ClientOptions, type ClientSettings, clientSettings } from './client-options.js';
import { answerEnvelope } from './envelope.js';
import { withUnknownOutcome } from './errors.js';
import { header, parseRetryAfter } from './headers.js';
import { formatCount, isIdempotencyKey } from './limits.js';
import type { CallArgs } from './method-args.js';
import { methodInfo } from './method-index.js';
import { rateLimitWait, readBudget } from './rate-limit.js';
import type { Attempt, RetriedCall } from './retry-call.js';
import { type HttpRequest, type RawResponse, Transport, TRANSPORT_BOUNDS } from './transport.js';
import { checkArgsForSending } from './validate.js';

export type { ClientOptions };

interface Request extends HttpRequest, RetriedCall {
  /** GET discovery addresses may answer a bare document (their payload is not shown). */
  envelopeRequired: boolean;
  ticket: CallTicket;
}

export class ApiClient {
  readonly baseUrl: URL;
  budget: RateBudget;
  /** Every attempt waits for its turn here when set (the batch commands set one). */
  gate?: CallGate;
  private readonly opts: ClientSettings;
  private readonly transport: Transport;
  /** The token, masked in every answer before anything reads it: an echo of it is never printed. */
  private readonly secrets = new SecretMask();

  constructor(opts: ClientOptions) {
    this.baseUrl = checkBaseUrl(opts.baseUrl);
    // A faster clock would poll faster than the service allows: for the emulator only.
    if ((opts.clock.speed ?? 1) !== 1 && !isLoopbackHost(this.baseUrl.hostname))
      throw new UsageError(
        `SITEBUILDER_CLOCK_SPEED is for the emulator on a loopback address, not ${this.baseUrl.hostname}; unset it.`,
      );
    this.opts = clientSettings(opts);
    this.budget = { at: opts.clock.now() };
    this.secrets.add(opts.token);
    this.transport = new Transport(this.baseUrl, {
      token: opts.token,
      userAgent: opts.userAgent,
      timeoutMs: this.opts.timeoutMs,
    });
  }

  get hasToken(): boolean {
    return Boolean(this.opts.token);
  }

  /**
   * What callers see of call() below: `args` typed from the registry for a method it names
   * (method-args.ts); the implementation takes any object.
   */
  call<const M extends string, T = unknown>(
    method: M,
    args: CallArgs<M>,
    options?: CallOptions,
  ): Promise<CallResult<T>>;
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
    return this.send<T>({
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
    return this.send<T>({
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
    this.transport.close();
  }

  /** Sends `r`: its first attempt here and, only should that fail, the rest in retry-call.ts. */
  private async send<T>(r: Request): Promise<CallResult<T>> {
    const started = this.opts.clock.now();
    const first = await this.attempt<T>(r, 1);
    if (first.kind === 'ok') return first.result;
    // Loaded now, not at start-up: a command whose calls succeed never needs it.
    const { retryCall } = await import('./retry-call.js');
    const attempt = (n: number) => this.attempt<T>(r, n);
    return retryCall(
      { call: r, settings: this.opts, baseUrl: this.baseUrl, wallSpeed: this.wallSpeed, started, attempt },
      first,
    );
  }

  /** Attempt `n` of `r`, once the gate lets it go: its result, or why it has none. */
  private async attempt<T>(r: Request, n: number): Promise<Attempt<T>> {
    const { clock } = this.opts;
    const { label, signal, key } = r;
    const over = this.gate ? await this.gate.acquire(r.ticket, signal) : undefined;
    const t0 = clock.now();
    let res: RawResponse;
    try {
      res = this.masked(await this.transport.send(r));
    } catch (err) {
      over?.();
      if (signal?.aborted) throw signal.reason;
      // The body could not be produced (a file that changed): nothing more to send.
      if (err instanceof CliError) throw err;
      this.debug(
        `${r.verb} ${label} → network error ${(err as NodeJS.ErrnoException).code || (err as Error).message} after ${clock.now() - t0}ms (attempt ${n})`,
      );
      return { kind: 'network', err: err as NodeJS.ErrnoException };
    }
    this.budget = readBudget(res.headers, this.wallSpeed, clock.now()) ?? this.budget;
    over?.(res.status, res.status === 429 ? this.budgetWait(res.headers) : undefined);
    const requestId = header(res.headers, 'x-request-id');
    this.debug(
      `${r.verb} ${label} → ${res.status} in ${clock.now() - t0}ms request=${requestId ?? '-'} remaining=${this.budget.remaining ?? '-'}${key ? ` key=${key}` : ''}`,
    );
    const envelope = answerEnvelope<T>(res, label, requestId, r.envelopeRequired, this.secrets, (err) =>
      withUnknownOutcome(err, r),
    );
    if (res.status < 300 && envelope.success !== false)
      return {
        kind: 'ok',
        result: { envelope, status: res.status, headers: res.headers, requestId, attempts: n, idempotencyKey: key },
      };
    return { kind: 'refused', res, envelope, requestId };
  }

  /** A 429 from the minute's budget (it carries Retry-After): the wait it asks for. */
  private budgetWait(headers: IncomingHttpHeaders): number | undefined {
    const raw = header(headers, 'retry-after');
    return raw === undefined
      ? undefined
      : rateLimitWait(parseRetryAfter(raw, this.opts.clock.now()), headers, this.wallSpeed);
  }

  /**
   * The service's seconds (Retry-After, X-RateLimit-Reset) are wall seconds; a clock run faster
   * (SITEBUILDER_CLOCK_SPEED, against the emulator at that --speed) counts that many of its own.
   */
  private get wallSpeed(): number {
    return this.opts.clock.speed ?? 1;
  }

  /** The answer with the token masked in its text and headers (mask.ts). */
  private masked(res: RawResponse): RawResponse {
    return { ...res, headers: maskHeaders(res.headers, this.secrets), body: this.secrets.apply(res.body) };
  }

  private debug(line: string): void {
    this.opts.debug?.(line);
  }
}

export type { ApiError };
