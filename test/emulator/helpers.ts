// Helpers for the emulator's conformance tests: a real server on 127.0.0.1, port 0, and raw
// HTTP calls (node:http, so tests see exactly what went over the wire).
import { request } from 'node:http';
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from '../../src/emulator/index.js';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

export interface SendOptions {
  verb?: string;
  token?: string | null;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. Undefined: no body. */
  body?: unknown;
}

export function send(baseUrl: string, path: string, options: SendOptions = {}): Promise<RawAnswer> {
  const url = new URL(path, baseUrl);
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] ??= String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.verb ?? (body === undefined ? 'GET' : 'POST'), headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
        res.on('error', reject);
        res.on('aborted', () => reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface Harness {
  emu: RunningEmulator;
  /** POST /v1/<method> with the full-scope token unless told otherwise. */
  call(method: string, args?: unknown, options?: SendOptions): Promise<RawAnswer>;
  get(path: string, options?: SendOptions): Promise<RawAnswer>;
  /** The control API over HTTP. */
  control(verb: string, path: string, body?: unknown): Promise<RawAnswer>;
  close(): Promise<void>;
}

export async function harness(options: StartEmulatorOptions = {}): Promise<Harness> {
  const emu = await startEmulator(options);
  return {
    emu,
    call: (method, args = {}, o = {}) =>
      send(emu.baseUrl, `/v1/${method}`, { token: emu.token, ...o, body: o.body ?? args, verb: o.verb ?? 'POST' }),
    get: (path, o = {}) => send(emu.baseUrl, path, { token: emu.token, ...o }),
    control: (verb, path, body) =>
      send(emu.baseUrl, `/_emulator/${path}`, { verb, body: body ?? (verb === 'POST' ? {} : undefined), token: null }),
    close: () => emu.close(),
  };
}
