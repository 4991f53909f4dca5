// What the client of the service is made with (client.ts), and the bounds it fills in where none
// is given: the transport's (transport.ts), the service's body limit and four tries of a call.
import type { Clock } from '../clock.js';
import type { TokenOrigin } from './errors.js';
import { LIMITS } from './limits.js';
import { TRANSPORT_BOUNDS } from './transport.js';

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

/** The options with every bound filled in. */
export type ClientSettings = Required<
  Omit<ClientOptions, 'token' | 'debug' | 'userAgent' | 'tokenOrigin' | 'addressOrigin' | 'notice'>
> &
  ClientOptions;

export const clientSettings = (opts: ClientOptions): ClientSettings => ({
  timeoutMs: TRANSPORT_BOUNDS.timeoutMs,
  maxAttempts: 4,
  maxRateLimitWaitMs: TRANSPORT_BOUNDS.rateLimitWaitMs,
  maxRetryTimeMs: 90_000,
  maxInFlightWaitMs: TRANSPORT_BOUNDS.inFlightWaitMs,
  maxAnswerBytes: TRANSPORT_BOUNDS.answerMaxBytes,
  maxBodyBytes: LIMITS.bodyBytesMax,
  random: Math.random,
  ...opts,
});
