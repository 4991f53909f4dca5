// Local checks of what the user typed, made before anything is sent (docs/reliability.md):
// an id that is empty, absurdly long, holds control, bidi or space characters, or looks like an
// access token is refused with exit 2, and never echoed (a token pasted in the wrong place stays
// off the screen, the logs and the service's error messages).
import { UsageError } from './errors.js';
import { FORMAT_CHARACTERS } from './io/sanitize.js';

/** Far above any id the service makes (24-hex ObjectIds, UUIDs, `site_bakery`). */
export const ID_MAX_LENGTH = 256;

/** The fixed prefix of the service's tokens as the emulator makes them (docs/emulator.md "Seeded data"). */
export const TOKEN_PREFIX = 'sbt_';

const CONTROL_OR_SPACE = new RegExp(`[\\s\\u0000-\\u001f\\u007f-\\u009f${FORMAT_CHARACTERS}\\u2028\\u2029]`, 'u');

/** Bits per character of the text's own distribution of characters. */
function entropyPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

const kind = (c: string) => (/[a-z]/.test(c) ? 1 : /[A-Z]/.test(c) ? 2 : /\d/.test(c) ? 3 : 4);

/** How often the kind of character (lower, upper, digit, other) changes: about 0.6 in a random string, under 0.4 in words. */
function kindChanges(text: string): number {
  let n = 0;
  for (let i = 1; i < text.length; i++) if (kind(text[i]) !== kind(text[i - 1])) n++;
  return n / (text.length - 1);
}

/**
 * Whether a value looks like an access token rather than an id: the token in force itself, a
 * value with its prefix (the letters up to its first `_`, as `sbt_`) or the emulator's, a JWT,
 * or a long random string: 32 characters or more mixing upper case, lower case and digits, with
 * the entropy and the changes of kind of random text (ids the service makes are lower-case hex,
 * UUIDs or words: none of them qualifies; a random base62 string of 32 does 999 times in 1,000).
 */
export function looksLikeToken(value: string, current?: string): boolean {
  if (current && current.length >= 8 && value.includes(current)) return true;
  const prefix = current ? /^[A-Za-z]{2,}_/.exec(current)?.[0] : undefined;
  if (value.length >= 16 && [TOKEN_PREFIX, prefix].some((p) => p && value.startsWith(p))) return true;
  if (/^eyJ[\w-]{4,}\.eyJ[\w-]{4,}\./.test(value)) return true;
  return (
    value.length >= 32 &&
    /^[\w.~+/=-]+$/.test(value) &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /\d/.test(value) &&
    entropyPerChar(value) >= 3.5 &&
    kindChanges(value) >= 0.4
  );
}

/**
 * Refuses an id that cannot be one (UsageError, exit 2) without repeating it. `what` starts the
 * sentence: "The site id", "--workspace".
 */
export function checkId(what: string, value: string, currentToken?: string): string {
  const refuse = (why: string) => new UsageError(`${what} ${why}; nothing was sent.`);
  if (value.trim() === '') throw refuse('is empty');
  if (looksLikeToken(value, currentToken))
    throw refuse(
      'looks like an access token, not an id, so it is not shown and was not sent. If it is one, keep it secret',
    );
  if (CONTROL_OR_SPACE.test(value)) throw refuse('holds spaces, control or bidi characters, which no id has');
  if (value.length > ID_MAX_LENGTH)
    throw refuse(`is ${value.length} characters long; ids are at most ${ID_MAX_LENGTH}`);
  return value;
}

/** A profile name: not empty, no control characters, a sane length. */
export function checkProfileName(name: string, source: string): string {
  if (name === '')
    throw new UsageError(`${source} is empty; name a profile (\`sitebuilder auth status\` shows the one in use).`);
  if (CONTROL_OR_SPACE.test(name.replace(/ /g, '')) || name.length > 100)
    throw new UsageError(`${source} is not a usable profile name (control characters, or over 100 characters).`);
  return name;
}
