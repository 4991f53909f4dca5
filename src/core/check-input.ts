// The checks every command line gets before its command runs, so that bad input costs no
// request and command files need none of their own (docs/reliability.md): contradictory
// flags, options given an empty value, placeholders of printed commands left unfilled
// (placeholders.ts), and the ids among the arguments and options (by name:
// an argument whose name ends in `Id`, an option whose value is an `<id>`), which must look like
// ids and never like a token. The site argument is checked by ctx.site(), since some commands
// take a message or a file in its place.
import { isIdempotencyKey } from '../api/limits.js';
import { UsageError } from '../errors.js';
import { checkId } from '../input.js';
import { refusePlaceholder } from './placeholders.js';
import type { AnyCommandDefinition } from './define.js';

/** commander's key of a long flag: `--idempotency-key` → idempotencyKey, `--no-wait` → wait. */
export function optionKey(long: string): string {
  return long
    .replace(/^--(no-)?/, '')
    .split('-')
    .reduce((acc, word) => acc + word[0].toUpperCase() + word.slice(1));
}

const longFlag = (flags: string) => /--[\w-]+/.exec(flags)?.[0] ?? flags;

/** What an argument is called in a sentence: `queueItemId` → the queue item id. */
const spoken = (name: string) =>
  name
    .replace(/-?[iI]d$/, ' id')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/-/g, ' ')
    .toLowerCase();

export interface GivenInput {
  /** The options run() gets (arguments under their names). */
  options: Record<string, unknown>;
  /** The program's own options as commander read them. */
  globals: Record<string, unknown>;
  /** The long flags that appeared on the command line (`--wait`, `--no-wait`). */
  given: ReadonlySet<string>;
  /** The token in force, if any, to recognize it pasted as an id (read only when there is an id to check). */
  token: () => string | undefined;
}

export function checkCommandInput(def: AnyCommandDefinition, input: GivenInput): void {
  for (const flag of input.given) {
    const positive = flag.replace(/^--no-/, '--');
    if (positive !== flag && input.given.has(positive))
      throw new UsageError(`${positive} and ${flag} contradict each other; give one of them. Nothing was sent.`);
  }
  for (const [key, flag] of [
    ['profile', '--profile'],
    ['baseUrl', '--base-url'],
    ['token', '--token'],
  ] as const) {
    if (input.globals[key] === '') throw new UsageError(`${flag} is empty; give it a value, or leave it out.`);
  }
  for (const o of def.options ?? []) {
    const placeholder = /<([\w-]+)>/.exec(o.flags)?.[1];
    if (!placeholder) continue;
    const flag = longFlag(o.flags);
    const given = input.options[optionKey(flag)];
    // A repeatable option holds a list of the values given.
    for (const value of Array.isArray(given) ? given : [given]) {
      if (typeof value === 'string') refusePlaceholder(flag, value, spoken(placeholder));
      if (value === '') throw new UsageError(`${flag} is empty; give it a value, or leave it out. Nothing was sent.`);
      if (typeof value !== 'string') continue;
      if (/id$/i.test(placeholder)) checkId(flag, value, input.token());
      if (flag === '--idempotency-key' && !isIdempotencyKey(value))
        throw new UsageError(
          `--idempotency-key takes 1 to 255 visible characters (no spaces); this one is ${value.length} long. Nothing was sent.`,
        );
    }
  }
  for (const a of def.args ?? []) {
    const value = input.options[optionKey(`--${a.name}`)];
    for (const v of Array.isArray(value) ? value : [value])
      if (typeof v === 'string') refusePlaceholder(a.name, v, spoken(a.name));
    if (!/id$/i.test(a.name)) continue;
    if (typeof value === 'string') checkId(`The ${spoken(a.name)}`, value, input.token());
  }
}
