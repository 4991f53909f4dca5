// A tiny scripted HTTP server on 127.0.0.1 for client tests: each request gets the next
// scripted answer, and every request is recorded. Besides plain answers it plays the hostile
// servers the client must survive: a body dripped slowly, a huge body, a hang, a dropped
// connection (docs/scripting.md "How calls are made").
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
  /** Content type of `raw` (default text/html). */
  contentType?: string;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
  /** Never answer (the client's deadline ends it). */
  hang?: boolean;
  /** Send the headers and `chunk` every `everyMs`, forever, until the client hangs up. */
  drip?: { chunk: string; everyMs: number };
  /** Stream this many bytes of a JSON list (`[0,0,…`), never finishing it unless the client reads it all. */
  hugeBytes?: number;
  /** With hugeBytes: declare the size in Content-Length (default: chunked, no length). */
  declareLength?: boolean;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The client's port: one value for every request means one connection. */
  remotePort?: number;
}

export interface ScriptServer {
  baseUrl: string;
  requests: RecordedRequest[];
  script: ScriptedAnswer[];
  /** Consulted before the script: an answer for this request, or undefined to take the next scripted one. */
  answerFor?: (req: RecordedRequest) => ScriptedAnswer | undefined;
  /** Bytes written by each answer, in request order (counted until the client hung up). */
  bytesSent: number[];
  /** Answers still being written (a drip or a huge body the client has not hung up on yet). */
  open(): number;
  close(): Promise<void>;
}

export function envelope(data: unknown, code = 200, message = 'ok', extra: Record<string, unknown> = {}) {
  return { success: code < 400, message, data, code, version: '1.0.0', ...extra };
}

/** Writes `total` bytes of `[0,0,0…` as fast as the client reads them; stops when it hangs up. */
function streamHuge(res: ServerResponse, total: number, count: (n: number) => void, done: () => void): void {
  const piece = Buffer.from('0,'.repeat(32 * 1024));
  let left = total;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const chunk = left === total ? Buffer.from('[') : piece;
      const slice = chunk.subarray(0, Math.min(chunk.length, left));
      left -= slice.length;
      count(slice.length);
      if (!res.write(slice)) return void res.once('drain', pump);
    }
    if (left <= 0 && !res.destroyed) res.end();
    done();
  };
  pump();
}

export async function startScriptServer(script: ScriptedAnswer[] = []): Promise<ScriptServer> {
  const requests: RecordedRequest[] = [];
  const bytesSent: number[] = [];
  const state: { script: ScriptedAnswer[]; answerFor?: ScriptServer['answerFor'] } = { script };
  let open = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      const n = bytesSent.push(0) - 1;
      const count = (bytes: number) => {
        bytesSent[n] += bytes;
      };
      const answer = state.answerFor?.(recorded) ?? state.script.shift() ?? { body: envelope(null) };
      if (answer.hang) return;
      if (answer.drop) {
        req.socket.destroy();
        return;
      }
      const status = answer.status ?? 200;
      const headers: Record<string, string> = {
        'content-type': answer.raw !== undefined ? (answer.contentType ?? 'text/html') : 'application/json',
        'x-request-id': `req_${requests.length}`,
        'x-ratelimit-limit': '240',
        'x-ratelimit-remaining': String(240 - requests.length),
        'x-ratelimit-reset': '42',
        ...answer.headers,
      };
      if (answer.drip || answer.hugeBytes !== undefined) {
        if (answer.hugeBytes !== undefined && answer.declareLength)
          headers['content-length'] = String(answer.hugeBytes);
        res.writeHead(status, headers);
        open++;
        let closed = false;
        const finish = () => {
          if (!closed) open--;
          closed = true;
        };
        res.on('close', finish);
        if (answer.hugeBytes !== undefined) return streamHuge(res, answer.hugeBytes, count, () => {});
        const { chunk, everyMs } = answer.drip!;
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          count(Buffer.byteLength(chunk));
          res.write(chunk);
        }, everyMs);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const body = answer.raw ?? JSON.stringify(answer.body ?? envelope(null, status));
      res.writeHead(status, headers);
      count(Buffer.byteLength(body));
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    bytesSent,
    open: () => open,
    get script() {
      return state.script;
    },
    set script(s) {
      state.script = s;
    },
    get answerFor() {
      return state.answerFor;
    },
    set answerFor(f) {
      state.answerFor = f;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
