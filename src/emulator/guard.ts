// The emulator answers loopback only, in every sense (docs/emulator.md "Security"). Binding to
// 127.0.0.1 keeps other machines out, but not a web page in the user's own browser: through DNS
// rebinding (evil.example resolving to 127.0.0.1) a page talks to the emulator as its own
// origin, and any page may send a "simple" cross-origin POST (text/plain, no preflight). So,
// before anything is routed:
//   - the Host header must name loopback (127.0.0.1, localhost, [::1]; or, bound elsewhere with
//     --host, that address or this machine's own) and the port the request arrived on: 421;
//   - an Origin header, when sent, must be the emulator's own origin: 403 (`null` included);
//   - a browser's Sec-Fetch-Site saying cross-site or same-site is refused, but for reading a
//     published site or a public file (a link followed from elsewhere): 403;
//   - the control API takes JSON bodies only (Content-Type: application/json), which no page can
//     send across origins without a preflight the emulator never answers: 415;
//   - with a control secret (required by --host on a non-loopback address), every control
//     request carries it in X-Emulator-Secret: 401.
// No answer carries a CORS header, so a page can read nothing even where it may send.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { isLoopbackHost } from '../api/base-url.js';

export const SECRET_HEADER = 'x-emulator-secret';

export interface GuardOptions {
  /** Host names besides loopback that name this emulator (the --host address, the machine's own). */
  hosts?: string[];
  /** Required on every control request when set. */
  controlSecret?: string;
}

export interface GuardRefusal {
  status: 401 | 403 | 415 | 421;
  message: string;
  reason: string;
}

/** The host names of a bind address besides loopback: itself, or for 0.0.0.0 / :: every address of this machine. */
export function hostsOf(bind: string): string[] {
  const bare = bind.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopbackHost(bare)) return [];
  if (bare !== '0.0.0.0' && bare !== '::') return [bare];
  const all = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.toLowerCase()));
  return [...new Set(all)];
}

/** The host name and port of a Host or Origin authority (`[::1]:8787`); undefined when malformed. */
function authority(text: string): { host: string; port: string } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(text.trim());
  return m ? { host: m[1].replace(/^\[|\]$/g, '').toLowerCase(), port: m[2] ?? '80' } : undefined;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Whether the request is addressed to this emulator: a loopback (or allowed) name and its port. */
function ours(text: string, port: number, options: GuardOptions): boolean {
  const a = authority(text);
  return Boolean(a && String(port) === a.port && (isLoopbackHost(a.host) || options.hosts?.includes(a.host)));
}

function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why the request is refused before it is routed, or undefined when it may go on. */
export function guardRequest(req: IncomingMessage, path: string, options: GuardOptions): GuardRefusal | undefined {
  const port = req.socket.localPort ?? 0;
  const host = first(req.headers.host);
  if (host === undefined || !ours(host, port, options)) {
    return {
      status: 421,
      reason: 'host-not-loopback',
      message: `This emulator answers requests addressed to 127.0.0.1, localhost or [::1] on port ${port} only, not to ${JSON.stringify(host ?? '')}: a web page cannot reach it through its own domain name.`,
    };
  }
  const origin = first(req.headers.origin);
  if (origin !== undefined) {
    const m = /^http:\/\/(.+)$/i.exec(origin);
    if (!m || !ours(m[1], port, options))
      return {
        status: 403,
        reason: 'foreign-origin',
        message: `Requests from a web page of another origin (${JSON.stringify(origin.slice(0, 100))}) are refused: the emulator answers only its own clients.`,
      };
  }
  const control = path === '/_emulator' || path.startsWith('/_emulator/');
  const readingPages = !control && !path.startsWith('/v1/') && (req.method === 'GET' || req.method === 'HEAD');
  const site = first(req.headers['sec-fetch-site']);
  if ((site === 'cross-site' || site === 'same-site') && !readingPages)
    return {
      status: 403,
      reason: 'cross-site',
      message:
        'Requests a browser sends for a page of another site are refused: the emulator answers only its own clients.',
    };
  if (!control) return undefined;
  if (options.controlSecret !== undefined && !sameSecret(first(req.headers[SECRET_HEADER]), options.controlSecret))
    return {
      status: 401,
      reason: 'control-secret',
      message: `The control API of this emulator needs its secret in the ${SECRET_HEADER} header (printed when it started).`,
    };
  const verb = req.method ?? 'GET';
  if (verb !== 'GET' && verb !== 'HEAD' && verb !== 'DELETE') {
    const type = (first(req.headers['content-type']) ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json')
      return {
        status: 415,
        reason: 'json-only',
        message: `The control API takes JSON only: send ${verb} with Content-Type: application/json (curl: -H 'content-type: application/json'), not ${JSON.stringify(type || 'no content type')}.`,
      };
  }
  return undefined;
}
