// A call whose attempt failed, tried again as retry.ts decides (docs/scripting.md "How calls are
// made"): a network error, or a 5xx of a call safe to repeat, after a backoff; a 429 of the
// minute's budget after its Retry-After; a 409 "in flight" on our own key until the first call
// answers. Anything else ends the call with its error. client.ts makes every attempt and loads
// this file only once one has failed: a command whose calls succeed never reads it
// (docs/architecture.md "Start-up").
import type { CliError } from '../errors.js';
import type { CallResult, Envelope } from './call.js';
import type { ClientSettings } from './client-options.js';
import { refusalError } from './envelope.js';
import { duration, networkFailure, withUnknownOutcome } from './errors.js';
import { header, parseRetryAfter } from './headers.js';
import { rateLimitWait } from './rate-limit.js';
import { isInFlight, NOT_SENT, Retries } from './retry.js';
import type { HttpRequest, RawResponse } from './transport.js';

/** What a retry reads of a call's request (client.ts sends the whole of it). */
export interface RetriedCall extends Pick<HttpRequest, 'verb' | 'signal'> {
  label: string;
  /** A retry cannot do the work twice (a read, or a write with its key). */
  retrySafe: boolean;
  /** A write: when it fails without a clear refusal, its effect is unknown. */
  write: boolean;
  key?: string;
  retryFloorMs?: number;
  maxAttempts?: number;
  /** The site the call is about (its projectId), for the commands a refusal may point to. */
  site?: string;
}

/** An attempt without a result: the service's answer refusing it, or the network error that stopped it. */
export type FailedAttempt =
  | { kind: 'refused'; res: RawResponse; envelope: Envelope; requestId: string | undefined }
  | { kind: 'network'; err: NodeJS.ErrnoException };

/** What one attempt of a call came to. */
export type Attempt<T> = { kind: 'ok'; result: CallResult<T> } | FailedAttempt;

/** A call to try again: its request, its client's settings, and the next attempt to make. */
export interface Retrying<T> {
  call: RetriedCall;
  settings: ClientSettings;
  baseUrl: URL;
  /** The service's seconds in the clock's (client.ts wallSpeed). */
  wallSpeed: number;
  /** When the call began, before its first attempt waited at the gate. */
  started: number;
  /** Makes attempt number `n`. */
  attempt(n: number): Promise<Attempt<T>>;
}

/** Goes on from `first`, attempt 1's failure: the result of a later attempt, or the call's error. */
export async function retryCall<T>(retrying: Retrying<T>, first: FailedAttempt): Promise<CallResult<T>> {
  const { call: r, settings, baseUrl } = retrying;
  const { clock, notice } = settings;
  const { label, key } = r;
  const retries = new Retries(
    {
      maxAttempts: r.maxAttempts ?? settings.maxAttempts,
      maxRetryTimeMs: settings.maxRetryTimeMs,
      maxRateLimitWaitMs: settings.maxRateLimitWaitMs,
      maxInFlightWaitMs: settings.maxInFlightWaitMs,
      floorMs: r.retryFloorMs ?? 0,
      random: settings.random,
    },
    retrying.started,
  );
  /** A failed write whose effect is unknown says so, with its key. */
  const unknownOutcome = <E extends CliError>(err: E): E => withUnknownOutcome(err, r);
  const retryIn = (wait: number, line: string): number => {
    settings.debug?.(line);
    return wait;
  };

  /** After a network error of attempt `n`: the wait before the next, or its error thrown. */
  const afterNetworkError = (err: NodeJS.ErrnoException, n: number): number => {
    const code = err.code ?? '';
    // A refused connection sent nothing, so even a write without a key may be retried.
    const wait = retries.afterNetworkError(code, r.retrySafe || NOT_SENT.has(code), clock.now());
    if (wait !== undefined) {
      if (code === 'ETIMEDOUT')
        notice?.(
          `No complete answer from ${baseUrl.host} within ${duration(settings.timeoutMs)}; trying ${label} once more.`,
        );
      return wait;
    }
    const failure = networkFailure(label, baseUrl, err, n, settings.timeoutMs, settings.addressOrigin);
    throw NOT_SENT.has(code) ? failure : unknownOutcome(failure);
  };

  /** After a refusal: the wait before the next attempt, or the refusal thrown as an error. */
  const afterRefusal = ({ res, envelope, requestId }: Extract<FailedAttempt, { kind: 'refused' }>): number => {
    const rawRetryAfter = header(res.headers, 'retry-after');
    const retryAfter = parseRetryAfter(rawRetryAfter, clock.now());
    const error = refusalError(res, envelope, { label, requestId, retryAfter, site: r.site }, settings.tokenOrigin);
    if (res.status === 429) {
      // A quota (queue caps) carries no Retry-After: waiting a few seconds would not help.
      if (rawRetryAfter === undefined) throw error;
      const wait = rateLimitWait(retryAfter, res.headers, retrying.wallSpeed);
      if (!retries.rateLimited(wait)) throw error;
      if (wait >= 3000) notice?.(`Rate limit reached; waiting ${Math.ceil(wait / 1000)} s before ${label}.`);
      return retryIn(wait, `retrying ${label} in ${wait}ms (Retry-After ${JSON.stringify(rawRetryAfter)})`);
    }
    if (res.status === 409 && key !== undefined && isInFlight(envelope)) {
      // Our own key, still running: the first call (perhaps one that timed out here) goes on
      // at the service. Wait for its answer instead of giving up: a re-run would do it twice.
      const next = retries.inFlight(clock.now());
      if (!next)
        throw unknownOutcome(
          error.withSentence(
            `The first ${label} call was still running after ${duration(settings.maxInFlightWaitMs)} of waiting for it (HTTP 409 in flight).`,
          ),
        );
      if (next.first)
        notice?.(
          `${label} is still running from the first attempt; waiting up to ${duration(settings.maxInFlightWaitMs)} for its answer.`,
        );
      return retryIn(next.wait, `${label} in flight; asking again in ${next.wait}ms`);
    }
    if (res.status >= 500 && r.retrySafe) {
      const wait = retries.afterServerError(clock.now());
      if (wait !== undefined) return retryIn(wait, `retrying ${label} in ${wait}ms`);
    }
    throw res.status >= 500 ? unknownOutcome(error) : error;
  };

  let failed = first;
  for (let n = 1; ; n++) {
    await clock.sleep(failed.kind === 'network' ? afterNetworkError(failed.err, n) : afterRefusal(failed), r.signal);
    const next = await retrying.attempt(n + 1);
    if (next.kind === 'ok') return next.result;
    failed = next;
  }
}
