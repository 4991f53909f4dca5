// Commands printed for a person to copy (what to run next, how to re-attach, how to answer) are
// quoted for a POSIX shell here, and only here: every value in them (a site id, a job id, a
// path, a placeholder like `…`) goes through shellQuote, so pasting one runs exactly it. A value
// that begins with `-` (an id the service made, say `--base-url=https://evil.example`) never
// becomes an option when pasted: an option's value is joined to it with `=`, and the arguments
// go after `--`, which ends the options (the flags are then put before it).
import { sanitizeInline } from './sanitize.js';

/** Quotes for a POSIX shell only when needed; values from the service are sanitized first. */
export function shellQuote(raw: string): string {
  const s = sanitizeInline(raw);
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A flag of a printed command (`--plan`), or a flag with its value (`--job J`). */
export interface Flag {
  flag: string;
  value?: string;
}

/** flag('--job', jobId): the value is quoted, and joined with `=` when it begins with `-`. */
export const flag = (name: string, value?: string): Flag => ({ flag: name, value });

/** A value commander would read as an option (`-` alone is standard input, an argument). */
const dashed = (value: string) => {
  const s = sanitizeInline(value);
  return s.startsWith('-') && s !== '-';
};

function flagText(f: Flag): string {
  if (f.value === undefined) return f.flag;
  return dashed(f.value) ? `${f.flag}=${shellQuote(f.value)}` : `${f.flag} ${shellQuote(f.value)}`;
}

/**
 * `sitebuilder <words> <values…>`: the words are ours (a noun, a verb: printed as they are);
 * every value is quoted, and flags are given with flag(). sb('storage-restore status', site, id,
 * flag('--wait')) → `sitebuilder storage-restore status s_1 srs_1 --wait`. When an argument
 * begins with `-`, the flags come first and `--` before the arguments.
 */
export function sb(words: string, ...values: Array<string | Flag>): string {
  const args = values.filter((v): v is string => typeof v === 'string');
  const flags = values.filter((v): v is Flag => typeof v !== 'string');
  const parts = args.some(dashed)
    ? [...flags.map(flagText), '--', ...args.map(shellQuote)]
    : values.map((v) => (typeof v === 'string' ? shellQuote(v) : flagText(v)));
  return ['sitebuilder', words, ...parts].filter(Boolean).join(' ');
}
