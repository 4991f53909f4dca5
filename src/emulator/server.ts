// node:http around the engine: /v1/ goes through the pipeline, /_emulator/ to the control API,
// anything else to the domains' raw routes (a published site) or 404.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIMITS } from '../api/limits.js';
import { handleControl } from './control.js';
import type { Emulator } from './emulator.js';
import { envelope } from './envelope.js';
import { type GuardOptions, guardRequest } from './guard.js';
import type { ApiAnswer } from './api-exchange.js';
import { handleApiRequest, refusalAnswer } from './pipeline.js';
import { readBody, writeJson } from './http-io.js';

export interface ServerOptions {
  /** Body size limit in bytes; the service's 150 MB unless a test lowers it. */
  bodyLimit?: number;
  /** Who may talk to it besides loopback, and the control API's secret (guard.ts). */
  guard?: GuardOptions;
}

/** Small bodies left unread are drained so the connection stays open for the next call. */
const DRAIN_MAX = 64 * 1024;

/**
 * After answering without reading the body (413, 405, 401, 404…): the rest is discarded as it
 * comes, never held. A large or unannounced body closes the connection after the answer.
 */
function finishUnread(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (!(declared <= DRAIN_MAX)) res.setHeader('Connection', 'close');
  req.resume();
}

export function createEmulatorServer(emu: Emulator, options: ServerOptions = {}): Server {
  const bodyLimit = options.bodyLimit ?? LIMITS.bodyBytesMax;
  const server = createServer({ keepAliveTimeout: 30_000, requestTimeout: 0 }, (req, res) => {
    handle(emu, req, res, bodyLimit, options.guard ?? {}).catch((err) => {
      const answer = refusalAnswer(emu, err, emu.newRequestId());
      if (!res.headersSent) writeJson(res, answer.status, answer.body, answer.headers);
      else res.destroy();
    });
  });
  return server;
}

async function handle(
  emu: Emulator,
  req: IncomingMessage,
  res: ServerResponse,
  bodyLimit: number,
  guard: GuardOptions,
): Promise<void> {
  const rawUrl = req.url ?? '/';
  const url = new URL(rawUrl, 'http://emulator.invalid');
  const verb = req.method ?? 'GET';
  // Loopback only, in every sense: the Host, the Origin, JSON for the control API (guard.ts).
  const refused = guardRequest(req, url.pathname, guard);
  if (refused) {
    finishUnread(req, res);
    writeJson(res, refused.status, envelope(refused.status, refused.message, { reason: refused.reason }), {
      'X-Request-Id': emu.newRequestId(),
    });
    return;
  }
  if (url.pathname.startsWith('/v1/')) {
    let bodyRead = false;
    const answer: ApiAnswer = await handleApiRequest(emu, {
      verb,
      url,
      rawUrl,
      headers: req.headers,
      readBody: (bytesPerSecond) => {
        bodyRead = true;
        return readBody(req, bodyLimit, bytesPerSecond);
      },
    });
    if (!bodyRead || answer.status === 413) finishUnread(req, res);
    writeJson(res, answer.status, answer.body, answer.headers, answer.drop);
    return;
  }
  if (url.pathname === '/_emulator' || url.pathname.startsWith('/_emulator/')) {
    await handleControl(emu, req, res, url, verb, bodyLimit);
    return;
  }
  for (const domain of emu.domains) {
    if (domain.http && (await domain.http(req, res, url, emu))) return;
  }
  finishUnread(req, res);
  const requestId = emu.newRequestId();
  writeJson(
    res,
    404,
    envelope(404, `Nothing is served at ${url.pathname}; methods live under /v1/ (GET /v1/tools lists them).`, null),
    {
      'X-Request-Id': requestId,
    },
  );
}

export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${usableHost(address)}:${address.port}`;
}

/**
 * The host of the base URL printed and used: an address the server listens on that a client can
 * connect to. Bound to every address (0.0.0.0, ::), that is loopback: a client on this machine
 * reaches it there, and the CLI sends its token over plain http to loopback only.
 */
function usableHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
