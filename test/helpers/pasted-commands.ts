// What test/e2e/printed-commands-*.test.ts share: a bash with the built binary on its PATH, as
// a person types at a prompt; the commands a text prints for a person to copy; and a paste of one,
// judged by what it did to the emulator's request log (issue: "a printed command is either
// complete or inert").
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { isPlaceholder } from '../../src/core/placeholders.js';
import { DEMO_TOKENS, type RunningEmulator } from '../../src/emulator/index.js';
import { shellWords } from '../commands/chat/helpers.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');

export interface Ran {
  code: number | null;
  out: string;
}

/** The commands a text prints for a person to copy, in the order printed. */
export function printedCommands(text: string): string[] {
  const found: Array<{ at: number; command: string }> = [];
  const rest = text.replace(/`(sitebuilder [^`\n]+)`/g, (whole, command: string, at: number) => {
    found.push({ at, command });
    return ' '.repeat(whole.length);
  });
  for (const m of rest.matchAll(/(?:^[ \t]*|:[ \t]+)(sitebuilder [^\n]+)$/gm))
    found.push({ at: (m.index ?? 0) + m[0].indexOf('sitebuilder'), command: m[1].trimEnd() });
  return found.sort((a, b) => a.at - b.at).map((f) => f.command);
}

const WRITES = (method: string | null | undefined) => !/^(list_|get_|browse_|read_)/.test(method ?? '');

/**
 * A prompt of its own (a temporary directory, a config directory, `sitebuilder` on the PATH)
 * against `emu`, whose clock runs `speed` times faster, as the CLI's does.
 */
export function pastingShell(emu: () => RunningEmulator, speed: number) {
  const tmp = mkdtempSync(join(tmpdir(), 'sb-printed-'));
  const shimDir = join(tmp, 'bin');
  mkdirSync(shimDir, { recursive: true });
  writeFileSync(join(shimDir, 'sitebuilder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shimDir, 'sitebuilder'), 0o755);
  /** The commands pasted so far (with their environment): one printed again is pasted once. */
  const pasted = new Set<string>();

  /** A line of bash, as typed at a prompt, with stdin closed (not a terminal: plain output). */
  function bash(line: string, env: Record<string, string> = {}): Promise<Ran> {
    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SITEBUILDER_')) base[k] = v;
    return new Promise((done, fail) => {
      const child = spawn('bash', ['-c', line], {
        cwd: tmp,
        env: {
          ...base,
          CI: '',
          PATH: `${shimDir}:${process.env.PATH}`,
          SITEBUILDER_BASE_URL: env.SITEBUILDER_BASE_URL ?? emu().baseUrl,
          SITEBUILDER_TOKEN: DEMO_TOKENS.full,
          SITEBUILDER_CONFIG_DIR: join(tmp, 'config'),
          SITEBUILDER_CLOCK_SPEED: String(speed),
          NO_COLOR: '1',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      child.stderr.on('data', (c: Buffer) => (out += c));
      child.on('error', fail);
      child.on('close', (code) => done({ code, out }));
    });
  }

  /** What went wrong with a pasted command, or undefined when it did what was promised. */
  async function paste(command: string, env?: Record<string, string>): Promise<string | undefined> {
    const before = emu().control.log().at(-1)?.seq ?? 0;
    const r = await bash(command, env);
    const sent = emu().control.log({ since: before });
    const fail = (why: string) => `${command}\n  ${why} (exit ${r.code})\n  ${r.out.trim().split('\n').join('\n  ')}`;
    // Parsed as a command line: no bash syntax error, no option commander does not know.
    if (
      /syntax error|command not found|unknown option|missing required argument|too many arguments|Unexpected error/i.test(
        r.out,
      )
    )
      return fail('not a command line sitebuilder takes');
    const placeholders = shellWords(command).filter((w) => isPlaceholder(w));
    if (placeholders.length > 0) {
      if (r.code !== 2) return fail(`holds the placeholder ${placeholders[0]} yet did not exit 2`);
      if (sent.length > 0) return fail(`holds a placeholder yet made ${sent.length} request(s)`);
      if (!/placeholder/.test(r.out)) return fail('does not say what to fill in');
      return undefined;
    }
    // Refused before anything was written: 2 (nothing to do), or 5 (a confirmation a script gives
    // with --yes: where the service's history cannot tell what waits, say).
    if (r.code === 2 || r.code === 5)
      return sent.some((e) => WRITES(e.method)) ? fail('refused after a write') : undefined;
    // The exit codes of README.md "Exit codes" that say how the thing went, not how the line was read.
    if (![0, 1, 6, 8, 10, 11].includes(r.code ?? -1)) return fail('an exit code that is no outcome');
    return undefined;
  }

  /** What the journeys printed, the problems of their pastes, and their transcript (for a failure to show). */
  const all: string[] = [];
  const problems: string[] = [];
  const transcript: string[] = [];

  /**
   * Runs a journey, then pastes each command it printed, at once, in the order printed; one
   * printed before (here or in an earlier journey) was pasted then, and is not pasted again.
   */
  async function journey(line: string, env?: Record<string, string>): Promise<{ printed: string[]; out: string }> {
    const r = await bash(line, env);
    const printed = printedCommands(r.out);
    all.push(...printed);
    transcript.push(`$ ${line}\n${r.out}`);
    for (const c of printed) {
      const key = `${JSON.stringify(env ?? {})} ${c}`;
      if (pasted.has(key)) continue;
      pasted.add(key);
      const problem = await paste(c, env);
      if (problem) problems.push(problem);
    }
    return { printed, out: r.out };
  }

  /**
   * Every pasted command did what it said or was inert; more than `atLeast` were printed; where
   * the choices are known, none holds `--choose N` to fill in; each kind was printed at least once.
   */
  function expectPrinted(kinds: RegExp[], atLeast: number): void {
    expect(problems).toEqual([]);
    expect(all.length, `printed:\n${all.join('\n')}`).toBeGreaterThan(atLeast);
    expect(all.filter((c) => /--choose\s+(?!\d+\b)/.test(c))).toEqual([]);
    for (const re of kinds)
      expect(
        all.some((c) => re.test(c)),
        `${re} in:\n${transcript.join('\n')}`,
      ).toBe(true);
  }

  return { bash, journey, expectPrinted };
}
