// The one client of the service (docs/scripting.md "How calls are made"): POST {base}/v1/<method>,
// JSON body, Bearer token, an Idempotency-Key on every write reused by its retries, and the rate
// budget tracked from the X-RateLimit-* headers. A call's arguments are checked against the
// method index before anything is sent; transport.ts sends one request within hard bounds,
// retry.ts decides what is tried again, envelope.ts reads the answer, and errors.ts turns a
// refusal into a sentence.
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../clock.js';
import { type ApiError, CliError, UsageError } from '../errors.js';
import { SecretMask, maskHeaders } from '../io/mask.js';
import { checkBaseUrl, isLoopbackHost } from './base-url.js';
import { bodyBytes, checkedArgs, encodeBody } from './body-stream.js';
import type { CallGate, CallOptions, CallResult, CallTicket, RateBudget } from './call.js';
import { answerEnvelope, refusalError } from './envelope.js';
import { duration, networkFailure, type TokenOrigin, withUnknownOutcome } from './errors.js';
import { header, parseRetryAfter, readBudget } from './headers.js';
import { formatCount, isIdempotencyKey, LIMITS } from './limits.js';
import type { CallArgs } from './method-args.js';
import { methodInfo } from './method-index.js';
import { isInFlight, NOT_SENT, Retries, rateLimitWait } from './retry.js';
import { type HttpRequest, type RawResponse, Transport, TRANSPORT_BOUNDS } from './transport.js';
import { checkArgsForSending } from './validate.js';

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

interface Request extends HttpRequest {
  label: string;
  /** A retry cannot do the work twice (a read, or a write with its key). */
  retrySafe: boolean;
  /** A write: when it fails without a clear refusal, its effect is unknown. */
  write: boolean;
  /** GET discovery addresses may answer a bare document (their payload is not shown). */
  envelopeRequired: boolean;
  key?: string;
  retryFloorMs?: number;
  maxAttempts?: number;
  /** The site the call is about (its projectId), for the commands a refusal may point to. */
  site?: string;
  ticket: CallTicket;
}

export class ApiClient {
  readonly baseUrl: URL;
  budget: RateBudget;
  /** Every attempt waits for its turn here when set (the batch commands set one). */
  gate?: CallGate;
  private readonly opts: Required<
    Omit<ClientOptions, 'token' | 'debug' | 'userAgent' | 'tokenOrigin' | 'addressOrigin' | 'notice'>
  > &
    ClientOptions;
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
    this.transport.close();
  }

  /** Sends `r`, tries again as api/retry.ts decides, and turns what came back into a result or an error. */
  private async withRetries<T>(r: Request): Promise<CallResult<T>> {
    const { clock } = this.opts;
    const { label, signal, key } = r;
    const retries = new Retries(
      {
        maxAttempts: r.maxAttempts ?? this.opts.maxAttempts,
        maxRetryTimeMs: this.opts.maxRetryTimeMs,
        maxRateLimitWaitMs: this.opts.maxRateLimitWaitMs,
        maxInFlightWaitMs: this.opts.maxInFlightWaitMs,
        floorMs: r.retryFloorMs ?? 0,
        random: this.opts.random,
      },
      clock.now(),
    );
    /** A failed write whose effect is unknown says so, with its key. */
    const unknownOutcome = <E extends CliError>(err: E): E =>
      r.write && key !== undefined ? withUnknownOutcome(err, label, key) : err;
    const retryIn = async (wait: number, line: string) => {
      this.debug(line);
      await clock.sleep(wait, signal);
    };
    for (let attempt = 1; ; attempt++) {
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
        const code = (err as NodeJS.ErrnoException).code ?? '';
        this.debug(
          `${r.verb} ${label} → network error ${code || (err as Error).message} after ${clock.now() - t0}ms (attempt ${attempt})`,
        );
        // A refused connection sent nothing, so even a write without a key may be retried.
        const wait = retries.afterNetworkError(code, r.retrySafe || NOT_SENT.has(code), clock.now());
        if (wait !== undefined) {
          if (code === 'ETIMEDOUT')
            this.opts.notice?.(
              `No complete answer from ${this.baseUrl.host} within ${duration(this.opts.timeoutMs)}; trying ${label} once more.`,
            );
          await clock.sleep(wait, signal);
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
      this.budget = readBudget(res.headers, this.wallSpeed, clock.now()) ?? this.budget;
      over?.(res.status, res.status === 429 ? this.budgetWait(res.headers) : undefined);
      const requestId = header(res.headers, 'x-request-id');
      this.debug(
        `${r.verb} ${label} → ${res.status} in ${clock.now() - t0}ms request=${requestId ?? '-'} remaining=${this.budget.remaining ?? '-'}${key ? ` key=${key}` : ''}`,
      );
      const envelope = answerEnvelope<T>(res, r.label, requestId, r.envelopeRequired, this.secrets, unknownOutcome);
      if (res.status < 300 && envelope.success !== false)
        return {
          envelope,
          status: res.status,
          headers: res.headers,
          requestId,
          attempts: attempt,
          idempotencyKey: key,
        };

      const rawRetryAfter = header(res.headers, 'retry-after');
      const retryAfter = parseRetryAfter(rawRetryAfter, clock.now());
      const error = refusalError(res, envelope, { label, requestId, retryAfter, site: r.site }, this.opts.tokenOrigin);
      if (res.status === 429) {
        // A quota (queue caps) carries no Retry-After: waiting a few seconds would not help.
        if (rawRetryAfter === undefined) throw error;
        const wait = rateLimitWait(retryAfter, res.headers, this.wallSpeed);
        if (!retries.rateLimited(wait)) throw error;
        if (wait >= 3000)
          this.opts.notice?.(`Rate limit reached; waiting ${Math.ceil(wait / 1000)} s before ${label}.`);
        await retryIn(wait, `retrying ${label} in ${wait}ms (Retry-After ${JSON.stringify(rawRetryAfter)})`);
        continue;
      }
      if (res.status === 409 && key !== undefined && isInFlight(envelope)) {
        // Our own key, still running: the first call (perhaps one that timed out here) goes on
        // at the service. Wait for its answer instead of giving up: a re-run would do it twice.
        const next = retries.inFlight(clock.now());
        if (!next)
          throw unknownOutcome(
            error.withSentence(
              `The first ${label} call was still running after ${duration(this.opts.maxInFlightWaitMs)} of waiting for it (HTTP 409 in flight).`,
            ),
          );
        if (next.first)
          this.opts.notice?.(
            `${label} is still running from the first attempt; waiting up to ${duration(this.opts.maxInFlightWaitMs)} for its answer.`,
          );
        await retryIn(next.wait, `${label} in flight; asking again in ${next.wait}ms`);
        continue;
      }
      if (res.status >= 500 && r.retrySafe) {
        const wait = retries.afterServerError(clock.now());
        if (wait !== undefined) {
          await retryIn(wait, `retrying ${label} in ${wait}ms`);
          continue;
        }
      }
      throw res.status >= 500 ? unknownOutcome(error) : error;
    }
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
