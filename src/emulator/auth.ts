// Who is calling: the Bearer token, checked as the service does (401 with WWW-Authenticate), and
// the refusal of a token placed in the address (400).
import type { IncomingHttpHeaders } from 'node:http';
import type { Emulator } from './emulator.js';
import { refuse } from './refusal.js';
import { TOKEN_PREFIX, type TokenRecord, type UserRecord } from './state.js';

const REALM = 'Bearer realm="sitebuilder"';

function unauthorized(message: string, error?: string): never {
  const challenge = error ? `${REALM}, error="${error}", error_description="${message.replace(/"/g, "'")}"` : REALM;
  return refuse(401, message, null, { 'WWW-Authenticate': challenge });
}

export function authenticate(emu: Emulator, headers: IncomingHttpHeaders): { token: TokenRecord; user: UserRecord } {
  const raw = headers.authorization;
  const match = raw ? /^Bearer[ ]+(\S+)\s*$/i.exec(raw) : null;
  if (!match) {
    unauthorized('An access token is required: send it in the Authorization header as `Bearer <token>`.');
  }
  const token = emu.tokenBySecret(match![1]);
  if (!token) return unauthorized('The access token is not valid.', 'invalid_token');
  if (token.revoked)
    return unauthorized(
      'The access token was revoked; create a new one in the dashboard under Tokens.',
      'invalid_token',
    );
  if (token.expiresAt !== null && token.expiresAt <= emu.clock.now()) {
    return unauthorized(
      `The access token expired on ${emu.iso(token.expiresAt)}; create a new one in the dashboard under Tokens.`,
      'invalid_token',
    );
  }
  const user = emu.user(token.userId);
  if (!user) return unauthorized('The access token is not valid.', 'invalid_token');
  return { token, user };
}

const SECRET_PARAM = /^(access[_-]?token|token|api[_-]?key|apikey|key|auth|authorization|bearer)$/i;

/** 400 when the address carries a token: in a query parameter, or anywhere as a token's prefix. */
export function refuseTokenInAddress(url: URL, rawUrl: string): void {
  let decoded = rawUrl;
  try {
    decoded = decodeURIComponent(rawUrl);
  } catch {
    // A malformed escape cannot hide a token any better than the raw text.
  }
  let found = rawUrl.includes(TOKEN_PREFIX) || decoded.includes(TOKEN_PREFIX);
  for (const [name, value] of url.searchParams) {
    if (SECRET_PARAM.test(name) || value.startsWith(TOKEN_PREFIX)) found = true;
  }
  if (found) {
    refuse(
      400,
      'An access token was found in the address; never put it there. Send it only in the Authorization header as `Bearer <token>`.',
      {
        reason: 'token-in-address',
      },
    );
  }
}
