// Docs that run (docs/CONTRIBUTING.md "Runnable examples"): every ```console block of README.md
// and docs/ marked `<!-- runnable … -->` is run as written, in bash, with the built binary on the
// PATH, against a fresh emulator of its own, and must end with the exit code and print the
// output it shows. And the scripts of examples/ run exactly as their headers say.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { ownEmulators } from '../helpers/own-emulators.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/sitebuilder.js');
const tmp = mkdtempSync(join(tmpdir(), 'sb-docs-'));
const shimDir = join(tmp, 'bin');
/** Some examples read JSON with jq (.ci/run installs it when missing); without it they are skipped. */
const hasJq = spawnSync('sh', ['-c', 'command -v jq']).status === 0;
/** Emulated time runs this much faster, and the CLI's waits with it (docs/emulator.md "--speed N"). */
const SPEED = '60';

interface Command {
  line: string;
  expected: string[];
}

interface Example {
  file: string;
  lineNo: number;
  exit: number;
  stream: 'stdout' | 'stderr';
  /** No address and no token: a fresh install. */
  fresh: boolean;
  commands: Command[];
}

/** The marked blocks of a Markdown text. */
function examplesOf(file: string, text: string): Example[] {
  const out: Example[] = [];
  const re = /<!-- runnable(?::([^>]*))? -->\n```console\n([\s\S]*?)\n```/g;
  for (const m of text.matchAll(re)) {
    const options = (m[1] ?? '').split(',').map((o) => o.trim());
    const exit = Number(/^exit (\d+)$/.exec(options.find((o) => o.startsWith('exit')) ?? 'exit 0')?.[1] ?? 0);
    const commands: Command[] = [];
    let continued = false;
    for (const line of m[2].split('\n')) {
      if (continued) commands[commands.length - 1].line += `\n${line}`;
      else if (line.startsWith('$ ')) commands.push({ line: line.slice(2), expected: [] });
      else commands[commands.length - 1]?.expected.push(line);
      continued = (line.startsWith('$ ') || continued) && line.endsWith(' \\');
    }
    out.push({
      file,
      lineNo: text.slice(0, m.index).split('\n').length,
      exit,
      stream: options.includes('stderr') ? 'stderr' : 'stdout',
      fresh: options.includes('fresh'),
      commands,
    });
  }
  return out;
}

/** `…` in a line matches any text; a line that is `…` alone, any number of lines. */
function matchLines(expected: string[], actual: string[]): boolean {
  if (expected.length === 0) return actual.length === 0;
  const [head, ...rest] = expected;
  if (head.trim() === '…') {
    for (let k = 0; k <= actual.length; k++) if (matchLines(rest, actual.slice(k))) return true;
    return false;
  }
  if (actual.length === 0) return false;
  const pattern = head
    .trimEnd()
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${pattern}$`).test(actual[0].trimEnd()) && matchLines(rest, actual.slice(1));
}

interface Ran {
  stdout: string[];
  stderr: string[];
  codes: number[];
}

/** Runs the block's commands in one bash, each output and exit code told apart by a separator. */
function runBlock(example: Example, env: Record<string, string>, cwd: string): Promise<Ran> {
  const script = example.commands.map((c) => `${c.line}\nprintf '\\036%s\\n' "$?"; printf '\\036' >&2\n`).join('');
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SITEBUILDER_')) base[k] = v;
  delete base.CI;
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', script], {
      cwd,
      env: {
        ...base,
        PATH: `${shimDir}:${process.env.PATH}`,
        NO_COLOR: '1',
        HOME: mkdtempSync(join(tmp, 'home-')),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', fail);
    child.on('close', () => {
      const outs = stdout.split('\x1e');
      const codes = outs.slice(1).map((part) => Number(part.split('\n')[0]));
      const bodies = [outs[0], ...outs.slice(1).map((part) => part.slice(part.indexOf('\n') + 1))];
      done({ stdout: bodies.slice(0, codes.length), stderr: stderr.split('\x1e').slice(0, codes.length), codes });
    });
  });
}

const lines = (text: string) => (text.replace(/\n$/, '') === '' ? [] : text.replace(/\n$/, '').split('\n'));

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const EXAMPLES = DOCS.flatMap((file) => examplesOf(file, readFileSync(join(ROOT, file), 'utf8')));

beforeAll(() => {
  mkdirSync(shimDir, { recursive: true });
  writeFileSync(join(shimDir, 'sitebuilder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shimDir, 'sitebuilder'), 0o755);
});

describe('the runner of docs examples', () => {
  it('reads a marked block: its exit code, stream, commands and output', () => {
    const text = 'x\n<!-- runnable: exit 2, stderr -->\n```console\n$ a \\\n  b\nout …\n…\n$ c\n```\n';
    expect(examplesOf('t.md', text)).toEqual([
      {
        file: 't.md',
        lineNo: 2,
        exit: 2,
        stream: 'stderr',
        fresh: false,
        commands: [
          { line: 'a \\\n  b', expected: ['out …', '…'] },
          { line: 'c', expected: [] },
        ],
      },
    ]);
  });

  it('matches … within a line and across lines, nothing else', () => {
    expect(matchLines(['a…c', '…', 'z'], ['abc', 'x', 'y', 'z'])).toBe(true);
    expect(matchLines(['a…c', 'z'], ['abc', 'x', 'z'])).toBe(false);
    expect(matchLines(['(x).'], ['(x).'])).toBe(true);
    expect(matchLines(['(x).'], ['(x)!'])).toBe(false);
    expect(matchLines([], [''])).toBe(false);
  });

  it('runs blocks that run the same commands the same way once, each checked against that run', () => {
    const block = (exit: string, out: string) => `<!-- runnable: ${exit} -->\n\`\`\`console\n$ a\n${out}\n\`\`\`\n`;
    const groups = byRun([
      ...examplesOf('x.md', block('exit 2', 'out …')),
      ...examplesOf('y.md', `${block('exit 2', 'out b')}${block('exit 1', 'out b')}`),
    ]);
    expect(groups.map((g) => g.map((e) => `${e.file}:${e.lineNo}`))).toEqual([['x.md:1', 'y.md:1'], ['y.md:6']]);
  });

  it('finds the marked blocks of README.md and docs/', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(8);
    expect(new Set(EXAMPLES.map((e) => e.file))).toEqual(
      new Set(['README.md', 'docs/guide.md', 'docs/scripting.md', 'docs/emulator.md', 'docs/CONTRIBUTING.md']),
    );
  });
});

/**
 * The examples by what runs: blocks with the same commands, exit code, stream and set-up (the
 * same refusal shown in two documents) run once, and each is checked against that run.
 */
function byRun(examples: Example[]): Example[][] {
  const groups = new Map<string, Example[]>();
  for (const e of examples) {
    const key = JSON.stringify([e.commands.map((c) => c.line), e.exit, e.stream, e.fresh]);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()];
}

// The docs show the emulator's own shapes (the file runs in the default project only).
describe.concurrent('runnable examples of the docs', () => {
  const emulator = ownEmulators({ speed: Number(SPEED), shapes: 'default' });

  for (const group of byRun(EXAMPLES)) {
    const [example] = group;
    const first = example.commands[0]?.line.split('\n')[0] ?? '';
    const needsJq = example.commands.some((c) => /\bjq\b/.test(c.line));
    it.skipIf(needsJq && !hasJq)(
      `${group.map((e) => `${e.file}:${e.lineNo}`).join(', ')} $ ${first}`,
      async () => {
        const cwd = mkdtempSync(join(tmp, 'cwd-'));
        const env: Record<string, string> = { SITEBUILDER_CONFIG_DIR: join(cwd, 'config') };
        // A fresh install has no address: no emulator to point it at.
        if (!example.fresh) {
          const emu = await emulator();
          Object.assign(env, {
            SITEBUILDER_BASE_URL: emu.baseUrl,
            SITEBUILDER_TOKEN: DEMO_TOKENS.full,
            SITEBUILDER_CLOCK_SPEED: SPEED,
            SITEBUILDER_EMULATOR_SPEED: SPEED,
          });
        }
        const ran = await runBlock(example, env, cwd);
        expect(ran.codes.length, 'every command ran').toBe(example.commands.length);
        for (const shownIn of group)
          shownIn.commands.forEach((c, i) => {
            const what = `${shownIn.file}:${shownIn.lineNo} $ ${c.line}`;
            const last = i === shownIn.commands.length - 1;
            const shown = lines(shownIn.stream === 'stderr' ? ran.stderr[i] : ran.stdout[i]);
            expect(ran.codes[i], `${what}\nstderr: ${ran.stderr[i]}`).toBe(last ? shownIn.exit : 0);
            expect(
              matchLines(c.expected, shown),
              `${what}\nexpected:\n${c.expected.join('\n')}\ngot:\n${shown.join('\n')}`,
            ).toBe(true);
          });
      },
      60_000,
    );
  }
});

/** The `$ ` lines of a script's header, each with the exit code its description states. */
function headerCommands(text: string): Array<{ line: string; exit: number }> {
  const header = text.slice(0, text.search(/^[^#]/m)).split('\n');
  const out: Array<{ line: string; exit: number }> = [];
  header.forEach((l, i) => {
    const m = /^# {3}\$ (.+)$/.exec(l);
    if (!m) return;
    const description = header.slice(i + 1, i + 4).join(' ');
    out.push({ line: m[1], exit: Number(/exit (\d+)/.exec(description)?.[1] ?? Number.NaN) });
  });
  return out;
}

describe.concurrent('examples/ run as their headers say', () => {
  const scripts = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.sh'));
  const emulator = ownEmulators({ speed: Number(SPEED), shapes: 'default' });

  it('each script names the command lines that run it, and the exit code they end with', () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) {
      const commands = headerCommands(readFileSync(join(ROOT, 'examples', s), 'utf8'));
      expect(commands.length, s).toBeGreaterThan(0);
      for (const c of commands) expect(Number.isInteger(c.exit), `${s}: ${c.line}`).toBe(true);
    }
  });

  for (const s of scripts)
    for (const { line, exit } of headerCommands(readFileSync(join(ROOT, 'examples', s), 'utf8')))
      it.skipIf(!hasJq)(
        `${s}: $ ${line}`,
        async () => {
          // A line that starts its own emulator runs as it is; another runs against one, as against
          // the service a profile points at (SITEBUILDER_BASE_URL and SITEBUILDER_TOKEN).
          const own = /(^|\s)sitebuilder emulator\b/.test(line);
          const env: Record<string, string> = {
            SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmp, 'cfg-')), 'config'),
            SITEBUILDER_EMULATOR_SPEED: SPEED,
            SITEBUILDER_EMULATOR_SHAPES: 'default',
          };
          if (!own) {
            const emu = await emulator();
            Object.assign(env, {
              SITEBUILDER_BASE_URL: emu.baseUrl,
              SITEBUILDER_TOKEN: DEMO_TOKENS.full,
              SITEBUILDER_CLOCK_SPEED: SPEED,
            });
          }
          const ran = await runBlock(
            { file: s, lineNo: 0, exit, stream: 'stdout', fresh: false, commands: [{ line, expected: [] }] },
            env,
            ROOT,
          );
          expect(ran.codes[0], `${line}\nstderr: ${ran.stderr[0]}`).toBe(exit);
          if (s === 'publish.sh' && exit === 0) {
            // What test/e2e/scripting.test.ts checks of it in the alternate shapes.
            expect(ran.stdout[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sites\/site_bakery\/\n$/);
            expect(ran.stderr[0]).toMatch(/Site site_bakery\n/);
            // A site with a history, on a machine that has followed none of its runs: whether a
            // question or a plan waits cannot be told; the script says --yes, so its change goes.
            expect(ran.stderr[0]).not.toContain('Cannot tell whether');
            expect(ran.stderr[0]).toMatch(/Published site_bakery\n$/);
          }
        },
        60_000,
      );
});
