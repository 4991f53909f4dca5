// Type tests of defineCommand (src/core/define.ts, src/core/inferred-options.ts): run()'s options
// are read from the declared arguments and options. Checked by `tsc --noEmit` (part of
// `npm test`): an assertion that no longer holds, or a `@ts-expect-error` that no longer finds
// its error, fails the type check.
import { expectTypeOf } from 'vitest';
import {
  type ArgsOf,
  type ArgumentDefinition,
  defineCommand,
  type FlagsOf,
  type OptionDefinition,
  type OptionsOf,
  parseDuration,
  parsePositiveInt,
} from '../../src/core/define.js';

const collect = (value: string, previous: unknown): string[] => [...((previous as string[] | undefined) ?? []), value];

const sample = defineCommand({
  name: 'sample',
  summary: 'every kind of flag',
  args: [
    { name: 'site', description: 'optional' },
    { name: 'backup-id', description: 'required, camelCased', required: true },
    { name: 'files', description: 'variadic', variadic: true },
  ],
  options: [
    { flags: '-L, --limit <n>', description: 'parsed', parse: parsePositiveInt('--limit') },
    { flags: '--all', description: 'boolean' },
    { flags: '--no-follow', description: 'negated alone: defaults to true' },
    { flags: '--wait', description: 'positive' },
    { flags: '--no-wait', description: 'and its negation: starts undefined' },
    { flags: '--tag [name]', description: 'optional value' },
    { flags: '--label <names...>', description: 'variadic' },
    { flags: '-m, --mode <mode>', description: 'choices', choices: ['full', 'selected'] },
    { flags: '--speed <n>', description: 'default', default: 1, parse: Number },
    { flags: '--host <host>', description: 'text default', default: '127.0.0.1' },
    { flags: '--path <path>', description: 'repeated', parse: collect },
    { flags: '-f, --raw-field <key=value>', description: 'camelCased' },
    { flags: '-y', description: 'short only' },
  ],
  async run(opts) {
    expectTypeOf(opts.limit).toEqualTypeOf<number | undefined>();
    // @ts-expect-error: a misspelt option is no key of run()'s options
    void opts.limt;
  },
});

type Sample = OptionsOf<typeof sample>;

expectTypeOf<Sample>().toEqualTypeOf<{
  site?: string;
  backupId: string;
  files: string[];
  limit?: number;
  all?: true;
  follow: boolean;
  wait?: boolean;
  tag?: string | true;
  label?: string[];
  mode?: 'full' | 'selected';
  speed: number;
  host: string;
  path?: string[];
  rawField?: string;
  y?: true;
}>();

// A hand-written type that drifts from the declaration fails: a key missing, misspelt, or typed otherwise.
expectTypeOf<Sample>().not.toEqualTypeOf<Omit<Sample, 'label'>>();
expectTypeOf<Sample>().not.toEqualTypeOf<Omit<Sample, 'limit'> & { limit?: string }>();
expectTypeOf<Sample>().not.toEqualTypeOf<Omit<Sample, 'rawField'> & { raw_field?: string }>();
// @ts-expect-error: an interface that says `limit` is text where the definition parses a number
expectTypeOf<Sample>().toEqualTypeOf<Omit<Sample, 'limit'> & { limit?: string }>();

// The lists alone, as shared option lists are typed (`FlagsOf<typeof FLEET_OPTIONS>`).
const shared = [
  { flags: '--timeout <duration>', description: 'd', parse: parseDuration('--timeout') },
  { flags: '--fail-fast', description: 'f' },
] as const;
expectTypeOf<FlagsOf<typeof shared>>().toEqualTypeOf<{ timeout?: number; failFast?: true }>();
expectTypeOf<ArgsOf<readonly [{ name: 'site'; description: '' }]>>().toEqualTypeOf<{ site?: string }>();

// Shared lists spread into a definition keep their literal flags.
const spread = defineCommand({
  name: 'spread',
  summary: 's',
  options: [...shared, { flags: '--plan', description: 'p' }],
  async run(opts) {
    expectTypeOf(opts).toEqualTypeOf<{ timeout?: number; failFast?: true; plan?: true }>();
  },
});
expectTypeOf<OptionsOf<typeof spread>>().toHaveProperty('timeout');

// A run() declared apart must take what the definition gives: one that wants more fails.
async function wantsLimit(o: { limit: number }) {
  return o.limit;
}
defineCommand({
  name: 'mismatch',
  summary: 'm',
  options: [{ flags: '--limit <n>', description: 'text, not a number' }],
  // @ts-expect-error: run() wants limit: number, the definition gives limit?: string
  run: wantsLimit,
});

// No arguments and no options: an empty object.
const bare = defineCommand({ name: 'bare', summary: 'b', async run() {} });
expectTypeOf<keyof OptionsOf<typeof bare>>().toEqualTypeOf<never>();

// A list widened to OptionDefinition[] (not `as const`) would give run() any key: refused.
const widened: OptionDefinition[] = [{ flags: '--limit <n>', description: 'text' }];
// @ts-expect-error: options need their literal flags
defineCommand({ name: 'widened', summary: 'w', options: widened, async run() {} });
const widenedArgs: ArgumentDefinition[] = [{ name: 'site', description: 's' }];
// @ts-expect-error: args need their literal names
defineCommand({ name: 'widened-args', summary: 'w', args: widenedArgs, async run() {} });
