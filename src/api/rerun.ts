// What to tell a person whose write ended with its outcome unknown (no answer in time, a first
// call still in flight after the wait): the exact command that runs it again with the same
// idempotency key, so that the service answers from the first call instead of doing it twice.
// The client knows the key but not the command line; cli.ts knows both and asks here.
import { sanitizeInline } from '../io/sanitize.js';
import { unknownOutcomeKey } from './errors.js';

/** How the command that ran takes a key: its own --idempotency-key, or the api passthrough's -H. */
export interface KeyFlags {
  idempotencyKey: boolean;
  header: boolean;
}

const quote = (raw: string): string => {
  const s = sanitizeInline(raw);
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
};

/** The arguments without the token (never echoed): `--token X` and `--token=X` go. */
function withoutToken(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (argv[i] === '--token') i++;
    else if (!argv[i].startsWith('--token=')) out.push(argv[i]);
  }
  return out;
}

/** The key the command line already carries, if any. */
function keyGiven(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a === '--idempotency-key') return argv[i + 1];
    if (a.startsWith('--idempotency-key=')) return a.slice('--idempotency-key='.length);
    const header = a === '-H' || a === '--header' ? argv[i + 1] : a.startsWith('--header=') ? a.slice(9) : undefined;
    const m = header === undefined ? null : /^\s*idempotency-key\s*:\s*(.*?)\s*$/i.exec(header);
    if (m) return m[1];
  }
  return undefined;
}

/** The sentence cli.ts adds to an error whose write may still take effect; undefined for other errors. */
export function rerunAdvice(err: unknown, argv: string[], flags: KeyFlags): string | undefined {
  const key = unknownOutcomeKey(err);
  if (key === undefined) return undefined;
  const words = withoutToken(argv);
  const given = keyGiven(words);
  if (given === key)
    return 'Run the same command again to get its answer: it carries the same key, so it cannot take effect twice.';
  if (given === undefined && (flags.idempotencyKey || flags.header)) {
    const end = words.indexOf('--');
    const head = end < 0 ? words : words.slice(0, end);
    const tail = end < 0 ? [] : words.slice(end);
    const add = flags.idempotencyKey ? ['--idempotency-key', key] : ['-H', `Idempotency-Key: ${key}`];
    const command = ['sitebuilder', ...[...head, ...add, ...tail].map(quote)].join(' ');
    return `To get its answer without doing it twice, run it again with the same key: ${command}`;
  }
  return 'Check whether it took effect before running the command again.';
}
