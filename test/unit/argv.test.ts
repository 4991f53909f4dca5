// The quick argument reader (src/argv.ts) against commander: over every command of the tree, on
// systematic and on random (seeded) command lines, the reader either gives exactly what commander
// hands the action (the same command, the same options and arguments, the same global values),
// or, only where commander would not run the command at all (help, --version, a usage error),
// hands the line over.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { parseArgv, type ParsedArgv } from '../../src/argv.js';
import type { CommandDefinition, OptionDefinition } from '../../src/commands/define.js';
import { loadCommands } from '../../src/commands/index.js';
import { GLOBAL_OPTIONS } from '../../src/global-options.js';
import { buildProgram } from '../../src/program.js';

type Outcome =
  | { def: CommandDefinition<any>; options: Record<string, unknown>; withGlobals: Record<string, unknown> }
  | 'not run';

async function viaCommander(argv: string[], noun: CommandDefinition<any>): Promise<Outcome> {
  let outcome: Outcome = 'not run';
  const program = buildProgram([noun], async (def, options, withGlobals) => {
    outcome = { def, options, withGlobals };
  });
  const quiet = (c: Command) => {
    c.exitOverride();
    c.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
    c.commands.forEach(quiet);
  };
  quiet(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return 'not run';
  }
  return outcome;
}

function viaReader(argv: string[], noun: CommandDefinition<any>): Outcome {
  const parsed: ParsedArgv | undefined = parseArgv(argv, GLOBAL_OPTIONS, noun);
  return parsed
    ? { def: parsed.path[parsed.path.length - 1], options: parsed.options, withGlobals: parsed.withGlobals }
    : 'not run';
}

/**
 * `api -f/-F` number their fields from one counter, so that two options keep one typed order:
 * what counts is that order, not the numbers (each parse takes new ones).
 */
function ranked<T>(value: T): T {
  const orders: number[] = [];
  JSON.stringify(value, (k, v) => (k === 'order' && typeof v === 'number' ? (orders.push(v), v) : v));
  const sorted = [...new Set(orders)].sort((a, b) => a - b);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k, k === 'order' && typeof x === 'number' ? sorted.indexOf(x) : walk(x)]),
      );
    return v;
  };
  return walk(value) as T;
}

async function expectSame(argv: string[], noun: CommandDefinition<any>): Promise<Outcome> {
  const want = await viaCommander(argv, noun);
  const got = viaReader(argv, noun);
  const show = (o: Outcome) =>
    o === 'not run' ? o : ranked({ command: o.def.name, options: o.options, withGlobals: o.withGlobals });
  expect(show(got), `sitebuilder ${argv.join(' ')}`).toStrictEqual(show(want));
  if (want !== 'not run' && got !== 'not run') expect(got.def).toBe(want.def);
  return want;
}

/** Every command that runs, with its path of definitions (noun first). */
function runnable(noun: CommandDefinition<any>): CommandDefinition<any>[][] {
  const out: CommandDefinition<any>[][] = [];
  const visit = (path: CommandDefinition<any>[]) => {
    const def = path[path.length - 1];
    if (def.run) out.push(path);
    for (const sub of def.subcommands ?? []) visit([...path, sub]);
  };
  visit([noun]);
  return out;
}

const CANDIDATES = ['5', '90s', 'a=b', 'X-Test: 1', 'value', '2026-01-01'];

/** A value the option accepts (its first choice, or the first candidate its parser takes). */
function goodValue(o: OptionDefinition): string {
  if (o.choices && !o.parse) return o.choices[0];
  for (const v of CANDIDATES) {
    try {
      o.parse?.(v, undefined);
      return v;
    } catch {
      // try the next one
    }
  }
  throw new Error(`no sample value for ${o.flags}`);
}

interface Flag {
  short?: string;
  long: string;
  value?: string;
}
const flagOf = (o: OptionDefinition): Flag => {
  const m = /^(?:(-\w), )?(--[\w-]+)(?: <.*>)?$/.exec(o.flags)!;
  return { short: m[1], long: m[2], value: o.flags.includes('<') ? goodValue(o) : undefined };
};

/** Small seeded generator (mulberry32): the random lines are the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A command's words, its arguments and placeholders for the required ones. */
function shape(path: CommandDefinition<any>[]) {
  const def = path[path.length - 1];
  const args = def.args ?? [];
  return {
    def,
    args,
    words: path.map((d) => d.name),
    required: args.filter((a) => a.required).map((_, i) => `arg${i}`),
  };
}

let NOUNS: CommandDefinition<any>[];
beforeAll(async () => {
  NOUNS = await loadCommands();
});

describe('the quick argument reader', () => {
  it('reads every command, each option in every spelling, exactly as commander does', async () => {
    let ran = 0;
    let total = 0;
    for (const noun of NOUNS) {
      for (const path of runnable(noun)) {
        const { def, args, words, required } = shape(path);
        const all = args.flatMap((a, i) => (a.variadic ? [`arg${i}`, `more${i}`] : [`arg${i}`]));
        const ancestors = [...path.slice(0, -1).flatMap((d) => d.options ?? []), ...GLOBAL_OPTIONS];
        const options = [...(def.options ?? []), ...ancestors];
        const lines: string[][] = [
          [...words, ...required],
          [...words, ...all],
          ['--json', ...words, ...required, '-q'],
          [...words, '--', ...required.map((a) => `-${a}`)],
        ];
        for (const o of options) {
          const f = flagOf(o);
          const spellings =
            f.value === undefined
              ? [[f.long], ...(f.short ? [[f.short]] : [])]
              : [
                  [f.long, f.value],
                  [`${f.long}=${f.value}`],
                  ...(f.short ? [[f.short, f.value], [`${f.short}${f.value}`]] : []),
                ];
          for (const s of spellings) {
            lines.push([...words, ...s, ...required]);
            lines.push([...words, ...required, ...s]);
            // Before the verb only the program's and the noun's own options are known.
            if (ancestors.includes(o)) lines.push([words[0], ...s, ...words.slice(1), ...required]);
          }
        }
        // Short flags group within one level (commander reads a group at the level that knows its first flag).
        for (const level of [def.options ?? [], GLOBAL_OPTIONS]) {
          const shorts = level.map(flagOf).filter((f) => f.short && f.value === undefined);
          if (shorts.length > 1)
            lines.push([...words, `-${shorts.map((f) => f.short!.slice(1)).join('')}`, ...required]);
        }
        for (const line of lines) {
          total++;
          if ((await expectSame(line, noun)) !== 'not run') ran++;
        }
      }
    }
    // The lines above are all valid: commander ran every one (so the reader did too).
    expect(total).toBeGreaterThan(1000);
    expect(ran).toBe(total);
  });

  it('hands commander the lines it answers with help, the version or a usage error', async () => {
    for (const noun of NOUNS) {
      for (const path of runnable(noun)) {
        const { def, args, words, required } = shape(path);
        const bad: string[][] = [
          [...words, ...required, '--help'],
          [...words, '-h'],
          ['--version', ...words],
          [...words, ...required, '--bogus'],
          [...words, ...required, ...Array.from({ length: args.length + 1 }, (_, i) => `extra${i}`)],
          [...words, ...required, '--', '--json'],
        ];
        if (required.length) bad.push(words);
        for (const o of def.options ?? []) {
          const f = flagOf(o);
          if (f.value !== undefined) bad.push([...words, ...required, f.long]);
          if (o.choices) bad.push([...words, ...required, f.long, 'not-a-choice']);
          if (o.parse) bad.push([...words, ...required, f.long, '']);
        }
        for (const line of bad) await expectSame(line, noun);
      }
      await expectSame([noun.name, 'no-such-verb'], noun);
      await expectSame([noun.name], noun);
      await expectSame(['help', noun.name], noun);
    }
  });

  it('agrees on made-up commands: an option shared with the program, a noun that runs and has verbs, variadic arguments', async () => {
    const run = async () => {};
    const noun: CommandDefinition<any> = {
      name: 'thing',
      summary: 'a made-up noun',
      args: [{ name: 'first', description: '' }],
      options: [
        { flags: '--debug', description: 'the same name as a global option', default: false },
        { flags: '-n, --count <n>', description: '', default: 1, parse: (v) => Number(v) },
      ],
      run,
      subcommands: [
        {
          name: 'sub',
          summary: 'a verb',
          args: [{ name: 'files', description: '', variadic: true }],
          options: [
            { flags: '--debug', description: '' },
            { flags: '--no-wait', description: '' },
            { flags: '--wait', description: '' },
          ],
          run,
        },
      ],
    };
    const lines = [
      ['thing'],
      ['thing', 'x'],
      ['thing', '--debug', 'x'],
      ['--debug', 'thing'],
      ['thing', '-n', '3', '--debug'],
      ['thing', 'sub'],
      ['thing', 'sub', 'a', 'b', 'c'],
      ['thing', 'sub', '--debug', '--no-wait', 'a'],
      ['--debug', 'thing', 'sub', '--wait'],
      ['thing', '--debug', 'sub', '-n', '2'],
      ['thing', 'x', 'y'],
      ['thing', 'sub', '--', '-a'],
    ];
    for (const line of lines) await expectSame(line, noun);
  });

  it('agrees with commander on random lines', async () => {
    const next = random(20261122);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
    let ran = 0;
    let total = 0;
    for (const noun of NOUNS) {
      const paths = runnable(noun);
      const pool = new Set<string>([
        '--',
        '-h',
        '--help',
        '-v',
        '--bogus',
        '-5',
        '-yq',
        '-qz',
        'a',
        'b',
        'help',
        '',
        '=',
        '--json=1',
      ]);
      for (const path of paths) {
        for (const d of path) pool.add(d.name);
        for (const o of [...path.flatMap((d) => d.options ?? []), ...GLOBAL_OPTIONS]) {
          const f = flagOf(o);
          pool.add(f.long);
          if (f.short) pool.add(f.short);
          if (f.value !== undefined) {
            pool.add(f.value);
            pool.add(`${f.long}=${f.value}`);
            if (f.short) pool.add(`${f.short}${f.value}`);
          }
          for (const c of o.choices ?? []) pool.add(c);
        }
      }
      const words = [...pool];
      for (let n = 0; n < 150; n++) {
        const path = pick(paths).map((d) => d.name);
        const line = [...path.slice(0, Math.floor(next() * (path.length + 1)))];
        const extra = Math.floor(next() * 5);
        for (let k = 0; k < extra; k++) line.splice(Math.floor(next() * (line.length + 1)), 0, pick(words));
        total++;
        if ((await expectSame(line, noun)) !== 'not run') ran++;
      }
    }
    // Both kinds were met: lines that run and lines commander refuses.
    expect(ran).toBeGreaterThan(total / 10);
    expect(ran).toBeLessThan(total);
  });
});
