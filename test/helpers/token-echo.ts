// A service that echoes the token back (startPlantingProxy's options, test/helpers/planting-proxy.ts):
// the very token each request carried — `Authorization: Bearer …` — in every string it answers
// and in X-Request-Id, spelled with a JSON escape (`\u0073bt_…`) every other time, so that it is
// the token only once parsed. And the scan of an output for any token of the seed.
import type { IncomingMessage } from 'node:http';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { maskToken } from '../../src/io/mask.js';

/** The token a request carried. */
export const tokenOf = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';

/** What the service adds to every string of its answer to the request. */
export const echoOf = (req: IncomingMessage) => ` (Authorization: Bearer ${tokenOf(req)})`;

/** The echo as the client holds it, the token masked: what comes back in a value it sends (a plan's). */
export const maskedEchoOf = (req: IncomingMessage) => ` (Authorization: Bearer ${maskToken(tokenOf(req))})`;

/** The token as a JSON string may spell it: its first letter as a \u escape. */
const escaped = (token: string) => `\\u${token.charCodeAt(0).toString(16).padStart(4, '0')}${token.slice(1)}`;

/** The answer's JSON text with every other echo of the request's token spelled with an escape. */
export function escapeEveryOther(text: string, req: IncomingMessage): string {
  const token = tokenOf(req);
  let n = 0;
  return token ? text.split(token).reduce((a, b) => a + (n++ % 2 ? escaped(token) : token) + b) : text;
}

/** Every token of the seed (each is sent by some command line): none may show, nor 12 characters of its secret part. */
const SECRETS = Object.values(DEMO_TOKENS);
export function leaks(text: string): string[] {
  const found: string[] = [];
  for (const token of SECRETS) {
    const secret = token.slice(token.lastIndexOf('_') + 1);
    if (text.includes(token)) found.push(token);
    for (let i = 0; i + 12 <= secret.length; i++)
      if (text.includes(secret.slice(i, i + 12))) found.push(`${token} (part)`);
  }
  return found;
}
