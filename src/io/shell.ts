// Commands printed for a person to copy (what to run next, how to re-attach, how to answer) are
// quoted for a POSIX shell here, and only here: every value in them (a site id, a job id, a
// path, a placeholder like `…`) goes through shellQuote, so pasting one runs exactly it.
import { sanitizeInline } from './sanitize.js';

/** Quotes for a POSIX shell only when needed; values from the service are sanitized first. */
export function shellQuote(raw: string): string {
  const s = sanitizeInline(raw);
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `sitebuilder <words> <values…>`: the words are ours (a noun, a verb, a flag: printed as they
 * are); every value is quoted. sb('storage-restore status', site, id) → `sitebuilder storage-restore status s_1 srs_1`.
 */
export function sb(words: string, ...values: string[]): string {
  return ['sitebuilder', words, ...values.map(shellQuote)].filter(Boolean).join(' ');
}
