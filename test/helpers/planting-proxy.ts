// A hostile service for the output-safety tests: an HTTP proxy on 127.0.0.1 in front of an
// emulator that plants every class of terminal control (escape sequences of every kind, C0, C1,
// DEL, bidi controls, the other invisible format characters) into every string of every answer: names, texts, messages of refusals,
// paths, questions, plans, URLs, e-mail records, the X-Request-Id header. Left alone: the words of
// the protocol (states, event kinds, tool names), times, base64 contents and the ids the service
// makes, which a person types back (`queue edit <site> <id>`) and the client looks up. What the
// client sends back has the plant taken out again before it reaches the emulator, so every
// command works as it would against the emulator itself, while everything it prints came planted.
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One of each class, around a visible marker (what survives the sanitizer shows the field was printed). */
export const PLANT = [
  '\u001b]52;c;cGxhbnRlZA==\u0007', // OSC 52: writes the clipboard
  '\u001b]8;;https://evil.example\u001b\\', // OSC 8 hyperlink, ST-terminated
  '\u001b[2J\u001b[H', // CSI: clear the screen, cursor home
  '\u001b[?1049h', // CSI private: alternate screen
  '\u001b[5m\u001b[8m', // SGR our style never makes: blink, conceal
  '\u001bP1$qm\u001b\\', // DCS
  '\u001b_apc\u001b\\', // APC
  '\u001b^pm\u001b\\', // PM
  '\u001bXsos\u001b\\', // SOS
  '\u001bc', // RIS: reset the terminal
  '\u009b2J', // 8-bit CSI
  '\u009d0;title\u009c', // 8-bit OSC
  '\u0085\u0090x\u009c', // NEL, 8-bit DCS
  'PLANTED',
  '\u0007\u0008\r\u000b\u000c\u0000\u001a', // BEL, BS, CR, VT, FF, NUL, SUB
  '\u007f', // DEL
  '\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c', // bidi
  '\u200b\u200c\u200d\u2060\ufeff\u00ad', // invisible format characters: ZWSP, ZWNJ, ZWJ, word joiner, BOM, soft hyphen
  '\u{e0041}\u{e007f}', // tag characters
  '\u2028\u2029', // line and paragraph separators
].join('');

/** In a response header: what Node lets a header carry (C1 as Latin-1 bytes). */
export const HEADER_PLANT = '\u009b2J\u0085';

/** Every character a planted string adds that must never reach an output raw. */
export const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u;

/** Strings left alone: protocol words (states, event kinds, tool names, scopes), ids, times, base64 file contents. */
function keepsItsValue(key: string, value: string): boolean {
  return (
    /^[a-z]+(?:[_:.-][a-z]+)*$/.test(value) ||
    /^(?:[a-z]+_\d+|[0-9a-f]{24}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Z]+-\d+)$/.test(
      value,
    ) ||
    /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(value) ||
    /base64/i.test(key) ||
    key === 'encoding'
  );
}

function transform(value: unknown, change: (key: string, s: string) => string, key = ''): unknown {
  if (typeof value === 'string') return change(key, value);
  if (Array.isArray(value)) return value.map((v) => transform(v, change, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, transform(v, change, k)]));
  return value;
}

export const plant = (value: unknown, what = PLANT) =>
  transform(value, (k, s) => (keepsItsValue(k, s) ? s : `${s}${what}`));
export const unplant = (value: unknown, what = PLANT) => transform(value, (_k, s) => s.split(what).join(''));

/** Another hostile service on the same plan: what it plants (per request), and how. */
export interface PlantOptions {
  /** The string added to every string of the answer (default: PLANT). */
  plantFor?: (req: IncomingMessage) => string;
  /** What is added to the X-Request-Id header (default: C1 controls). */
  headerPlantFor?: (req: IncomingMessage) => string;
  /** A last change to the answer's JSON text. */
  rewrite?: (text: string, req: IncomingMessage) => string;
  /** Other forms in which the plant comes back in what the client sends (a token in it masked): taken out too. */
  sentBackAs?: (req: IncomingMessage) => string[];
}

export interface PlantingProxy {
  baseUrl: string;
  /** Answers that came back planted. */
  planted(): number;
  close(): Promise<void>;
}

export async function startPlantingProxy(target: string, options: PlantOptions = {}): Promise<PlantingProxy> {
  const to = new URL(target);
  let planted = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const what = options.plantFor?.(req) ?? PLANT;
      let body = Buffer.concat(chunks);
      try {
        if (body.length) {
          let sent = unplant(JSON.parse(body.toString('utf8')), what);
          for (const form of options.sentBackAs?.(req) ?? []) sent = unplant(sent, form);
          body = Buffer.from(JSON.stringify(sent));
        }
      } catch {
        // not JSON: as it came
      }
      const headers = { ...req.headers, host: to.host, 'content-length': String(body.length) };
      const out = request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            let text = Buffer.concat(parts);
            try {
              const json = JSON.stringify(plant(JSON.parse(text.toString('utf8')), what));
              text = Buffer.from(options.rewrite ? options.rewrite(json, req) : json);
              planted++;
            } catch {
              // not JSON: as it came
            }
            const h = { ...answer.headers };
            delete h['content-length'];
            delete h['transfer-encoding'];
            if (typeof h['x-request-id'] === 'string')
              h['x-request-id'] = `${h['x-request-id']}${options.headerPlantFor?.(req) ?? HEADER_PLANT}`;
            res.writeHead(answer.statusCode ?? 502, { ...h, 'content-length': String(text.length) });
            res.end(text);
          });
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    planted: () => planted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
