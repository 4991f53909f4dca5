import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { helpTexts } from '../../src/cli.js';
import { run } from '../helpers/run.js';

const { helpFileName } = createRequire(import.meta.url)('../../bin/help-file.cjs') as {
  helpFileName: (path: string) => string;
};

describe('help', async () => {
  const texts = await helpTexts();

  it('ends the program help with the exit codes', () => {
    expect(texts['']).toContain('Exit codes:');
    expect(texts['']).toMatch(/130\s+interrupted by the user/);
  });

  it('lists the commands by name, as gh does: the descriptions keep room at 80 columns', () => {
    const commands = texts[''].split('\nCommands:\n')[1].split('\n\n')[0].split('\n');
    expect(commands.find((l) => l.startsWith('  chat '))).toMatch(/^ {2}chat {2,}Talk to the site agent/);
    expect(commands.find((l) => l.startsWith('  storage-backup '))).toMatch(/^ {2}storage-backup {2,}List, browse/);
    // Neither arguments nor aliases beside the names; every description starts in one column, 24 in at most.
    expect(commands.filter((l) => /^ {2}\S/.test(l) && /[[<|]/.test(l.trim().split(/\s{2,}/)[0]))).toEqual([]);
    const starts = new Set(commands.filter((l) => /^ {2}\S/.test(l)).map((l) => l.search(/(?<=\S {2,})\S/)));
    expect(starts.size).toBe(1);
    expect([...starts][0]).toBeLessThanOrEqual(24);
  });

  it('answers --help in-process exactly as the texts bin/ prints without loading the CLI', async () => {
    for (const path of ['', 'site', 'site list', 'sites ls', 'auth login']) {
      const argv = path ? [...path.split(' '), '--help'] : ['--help'];
      const res = await run(argv);
      expect(res.code, path).toBe(0);
      expect(res.stdout, path).toBe(texts[path]);
    }
  });

  it('answers `help [words…]` and `<noun> help [verb]` like --help, exit 0', async () => {
    for (const [argv, path] of [
      [['help'], ''],
      [['help', 'site'], 'site'],
      [['help', 'site', 'list'], 'site list'],
      [['--no-color', 'help', 'auth', 'login'], 'auth login'],
      [['site', 'help'], 'site'],
      [['site', 'help', 'list'], 'site list'],
    ] as const) {
      const res = await run([...argv]);
      expect(res.code, argv.join(' ')).toBe(0);
      expect(res.stdout, argv.join(' ')).toBe(texts[path]);
    }
  });

  it('takes "help" for help only after global options and before or after a noun that exists', async () => {
    // A noun with arguments of its own does not take "help" as one (nothing is sent).
    const publish = await run(['publish', 'help']);
    expect([publish.code, publish.stdout]).toEqual([0, texts.publish]);
    expect((await run(['publish', 'help', 'status'])).stdout).toBe(texts['publish status']);
    // A typo of a command is answered as the typo alone is: a suggestion, exit 2, no whole help.
    for (const argv of [['help', 'sit'], ['sit']]) {
      const typo = await run(argv);
      expect([typo.code, typo.stdout], argv.join(' ')).toEqual([2, '']);
      expect(typo.stderr).toBe("error: unknown command 'sit'\n(Did you mean site?)\nRun with --help for usage.\n");
    }
    for (const argv of [
      ['help', 'site', 'lsit'],
      ['site', 'help', 'lsit'],
    ]) {
      const verb = await run(argv);
      expect([verb.code, verb.stdout], argv.join(' ')).toEqual([2, '']);
      expect(verb.stderr).toContain("unknown command 'lsit'\n(Did you mean list?)");
    }
    // A noun that runs by itself keeps taking the word after it as its argument: its help.
    expect(await run(['help', 'publish', 'site_1'])).toMatchObject({ code: 0, stdout: texts.publish });
    expect(await run(['help', 'help'])).toMatchObject({ code: 0, stdout: texts[''] });
    // An unknown option in front stays an error.
    const unknown = await run(['--timeout', 'help', 'site']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--timeout'");
    const json = await run(['--json', 'help', 'bogus']);
    expect([json.code, json.stdout]).toEqual([2, '']);
    expect(JSON.parse(json.stderr).error.message).toBe("unknown command 'bogus'");
    const bare = await run(['--json']);
    expect(JSON.parse(bare.stderr).error.message).toBe(
      '`sitebuilder` needs a command; `sitebuilder --help` lists them.',
    );
  });

  it('finds the noun after a group of short global flags ending in one that takes a value (-qp NAME)', async () => {
    const res = await run(['-qp', 'nope', 'site', 'list']);
    expect(res.stderr).toContain('There is no profile "nope"');
  });

  it('answers a noun without a verb with its help on stderr and exit 2; under --json with a JSON error only', async () => {
    const plain = await run(['site']);
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toBe(texts.site);
    const json = await run(['--json', 'site']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        type: 'UsageError',
        message: '`sitebuilder site` needs a command; `sitebuilder site --help` lists them.',
        exitCode: 2,
      },
    });
  });

  it('is what the build wrote to dist/help/, a file for each command and alias', () => {
    const dir = new URL('../../dist/help/', import.meta.url);
    expect(readdirSync(dir).sort()).toEqual(Object.keys(texts).map(helpFileName).sort());
    for (const [path, text] of Object.entries(texts))
      expect(readFileSync(new URL(helpFileName(path), dir), 'utf8'), path).toBe(text);
  });

  it('shows examples and the global options in a verb’s help', () => {
    expect(texts['site create']).toContain('Examples:');
    expect(texts['site create']).toContain('--json');
  });
});

describe('lazy nouns', () => {
  it('name each noun and its aliases as its definition does', async () => {
    const { NOUNS } = await import('../../src/core/nouns.js');
    for (const n of NOUNS) {
      const def = await n.load();
      expect(def.name, n.name).toBe(n.name);
      expect([...(def.aliases ?? [])], n.name).toEqual([...n.aliases]);
    }
  });

  it('run a noun named after global options that take values', async () => {
    const res = await run(['--profile', 'x', '--base-url', 'http://127.0.0.1:9', 'site', 'use', '--clear', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ profile: 'x', site: null });
  });

  it('suggest a verb for a near miss, and show a noun’s help when no verb is given (exit 2)', async () => {
    const typo = await run(['site', 'lsit']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'lsit'");
    expect(typo.stderr).toContain('(Did you mean list?)');
    const bare = await run(['site']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: sitebuilder site|sites');
    expect(bare.stdout).toBe('');
  });

  it('suggest a noun for a near miss', async () => {
    const res = await run(['stie', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('(Did you mean site?)');
  });
});
