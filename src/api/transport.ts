// One HTTP request with hard bounds, whatever the server does (docs/scripting.md "How calls are
// made"): one keep-alive connection, a total deadline up to the answer's last byte (not an idle
// timer) with the time a slow link needs for a large body, a cap on the answer's size counted as
// it streams, and Ctrl-C honoured at once. What the answer means is the client's (client.ts).
import type { Agent, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { type Body, bodyBytes, type SentListener, writeBody } from './body-stream.js';
import { header, num } from './headers.js';

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

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The answer passed the size cap: it was cut off and not read. */
  overCap?: number;
}

/** What goes out: the method's address under the base URL, its body and headers. */
export interface HttpRequest {
  verb: 'GET' | 'POST';
  path: string;
  body?: Body;
  headers: Record<string, string>;
  /** The largest answer read. */
  answerCap: number;
  signal?: AbortSignal;
  onSent?: SentListener;
}

export interface TransportOptions {
  token?: string;
  userAgent?: string;
  /** The total deadline of one request (real time: sockets do not follow an injected clock). */
  timeoutMs: number;
}

export class Transport {
  private agent?: Agent;
  private requestModule?: typeof import('node:http');

  constructor(
    private readonly baseUrl: URL,
    private readonly opts: TransportOptions,
  ) {}

  /** Sends one request and reads its whole answer, within the deadline and the size cap. */
  async send(r: HttpRequest): Promise<RawResponse> {
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

  close(): void {
    this.agent?.destroy();
  }
}
