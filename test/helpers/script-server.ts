// A tiny scripted HTTP server on 127.0.0.1 for client tests: each request gets the next
// scripted answer, and every request is recorded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
  /** Never answer (the client's time-out ends it). */
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptServer {
  baseUrl: string;
  requests: RecordedRequest[];
  script: ScriptedAnswer[];
  close(): Promise<void>;
}

export function envelope(data: unknown, code = 200, message = 'ok', extra: Record<string, unknown> = {}) {
  return { success: code < 400, message, data, code, version: '1.0.0', ...extra };
}

export async function startScriptServer(script: ScriptedAnswer[] = []): Promise<ScriptServer> {
  const requests: RecordedRequest[] = [];
  const state = { script };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = state.script.shift() ?? { body: envelope(null) };
      if (answer.hang) return;
      if (answer.drop) {
        req.socket.destroy();
        return;
      }
      const status = answer.status ?? 200;
      const body = answer.raw ?? JSON.stringify(answer.body ?? envelope(null, status));
      res.writeHead(status, {
        'content-type': answer.raw ? 'text/html' : 'application/json',
        'x-request-id': `req_${requests.length}`,
        'x-ratelimit-limit': '240',
        'x-ratelimit-remaining': String(240 - requests.length),
        'x-ratelimit-reset': '42',
        ...answer.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get script() {
      return state.script;
    },
    set script(s) {
      state.script = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
