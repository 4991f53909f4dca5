// What commander really hands run() (src/core/program.ts) is what the type inferred from the
// definition says (src/core/inferred-options.ts; its type tests: test/types/define.test-d.ts).
// Each expected value is checked against OptionsOf<typeof sample> by tsc, and against what a
// parsed command line gives by this test: so the type's rules hold at run time too.
import { describe, expect, it } from 'vitest';
import { defineCommand, type OptionsOf, parseDuration, parsePositiveInt } from '../../src/core/define.js';
import { buildProgram } from '../../src/core/program.js';

const collect = (value: string, previous: unknown): string[] => [...((previous as string[] | undefined) ?? []), value];

const sample = defineCommand({
  name: 'sample',
  summary: 'every kind of flag',
  args: [
    { name: 'backup-id', description: 'required, camelCased', required: true },
    { name: 'site', description: 'optional' },
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
    { flags: '--timeout <duration>', description: 'default', default: 600_000, parse: parseDuration('--timeout') },
    { flags: '--host <host>', description: 'text default', default: '127.0.0.1' },
    { flags: '--path <path>', description: 'repeated', parse: collect },
    { flags: '-f, --raw-field <key=value>', description: 'camelCased' },
    { flags: '-z', description: 'short only' },
  ],
  async run() {},
});

type Sample = OptionsOf<typeof sample>;

/** The options run() gets for `sample …argv`, keys left undefined by commander dropped. */
async function parsed(argv: string[]): Promise<Record<string, unknown>> {
  let got: Record<string, unknown> | undefined;
  const program = buildProgram([sample], async (_def, options) => {
    got = options;
  });
  program.exitOverride();
  for (const c of program.commands) c.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
  await program.parseAsync(['sample', ...argv], { from: 'user' });
  return Object.fromEntries(Object.entries(got ?? {}).filter(([, v]) => v !== undefined));
}

describe('the options inferred from a definition', () => {
  it('are what commander gives when no flag is given', async () => {
    const expected = { backupId: 'b_1', files: [], follow: true, timeout: 600_000, host: '127.0.0.1' } satisfies Sample;
    expect(await parsed(['b_1'])).toEqual(expected);
  });

  it('are what commander gives when every flag is given', async () => {
    const expected = {
      backupId: 'b_1',
      site: 's_1',
      files: ['a.txt', 'b.txt'],
      limit: 3,
      all: true,
      follow: false,
      wait: true,
      tag: true,
      label: ['x', 'y'],
      mode: 'full',
      timeout: 90_000,
      host: '0.0.0.0',
      path: ['p', 'q'],
      rawField: 'k=v',
      z: true,
    } satisfies Sample;
    const argv = ['b_1', 's_1', 'a.txt', 'b.txt', '-L', '3', '--all', '--no-follow', '--wait', '--tag'];
    argv.push('--mode', 'full', '--timeout', '90s', '--host', '0.0.0.0', '--path', 'p', '--path', 'q');
    argv.push('-f', 'k=v', '-z', '--label', 'x', 'y');
    expect(await parsed(argv)).toEqual(expected);
  });

  it('give an optional value as text when it is named, and a negation as false', async () => {
    const expected = { backupId: 'b_1', files: [], follow: true, timeout: 600_000, host: '127.0.0.1' } satisfies Sample;
    const named = { ...expected, tag: 'v2', wait: false } satisfies Sample;
    expect(await parsed(['b_1', '--tag', 'v2', '--no-wait'])).toEqual(named);
  });

  it('refuse a value outside the choices before run() is called', async () => {
    await expect(parsed(['b_1', '--mode', 'partial'])).rejects.toThrow(/Allowed choices are full, selected/);
  });
});
