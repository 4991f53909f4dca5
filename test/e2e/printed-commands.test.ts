// Every command sitebuilder prints, pasted exactly into bash, does what its sentence says or
// sends nothing and exits 2 naming what to fill in (issue: "a printed command is either complete
// or inert"). Journeys run the built binary against an emulator of this process (a question, a
// plan, a timeout, a queue, publish, a storage restore plan, the batch summaries, refusals that
// name a command); every command they print is collected (a `backquoted` span, or a `sitebuilder
// …` that starts a line or follows a colon, to its end) and pasted into bash at once, as a
// person would, with the emulator's request log read around it. A hostile service whose ids
// begin with `-` (`--base-url=…`) gets its printed commands pasted too: no request ever leaves
// for the address it names.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlaceholder } from '../../src/core/placeholders.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { shellWords } from '../commands/chat/helpers.js';
import { envelope, type ScriptServer, startScriptServer } from '../helpers/script-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/sitebuilder.js');
const tmp = mkdtempSync(join(tmpdir(), 'sb-printed-'));
const shimDir = join(tmp, 'bin');
const SPEED = 60;

let emu: RunningEmulator;

beforeAll(async () => {
  mkdirSync(shimDir, { recursive: true });
  writeFileSync(join(shimDir, 'sitebuilder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shimDir, 'sitebuilder'), 0o755);
  emu = await startEmulator({ port: 0, speed: SPEED });
});
afterAll(() => emu?.close());

interface Ran {
  code: number | null;
  out: string;
}

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
        SITEBUILDER_BASE_URL: emu.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        SITEBUILDER_CONFIG_DIR: join(tmp, 'config'),
        SITEBUILDER_CLOCK_SPEED: String(SPEED),
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

/** The commands a text prints for a person to copy, in the order printed. */
function printedCommands(text: string): string[] {
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

/** What went wrong with a pasted command, or undefined when it did what was promised. */
async function paste(command: string, env?: Record<string, string>): Promise<string | undefined> {
  const before = emu.control.log().at(-1)?.seq ?? 0;
  const r = await bash(command, env);
  const sent = emu.control.log({ since: before });
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

/** Runs a journey, then pastes each command it printed, at once, in the order printed. */
async function journey(
  line: string,
  env?: Record<string, string>,
): Promise<{ printed: string[]; problems: string[]; out: string }> {
  const r = await bash(line, env);
  const printed = printedCommands(r.out);
  const problems: string[] = [];
  for (const c of printed) {
    const problem = await paste(c, env);
    if (problem) problems.push(problem);
  }
  return { printed, problems, out: r.out };
}

/** A storage backup of the site that can be restored: the first its listing does not say cannot be. */
const readyBackup = async (site: string) =>
  (await bash(`sitebuilder storage-backup list ${site}`)).out
    .split('\n')
    .find((l) => l.includes('\t') && !l.includes('cannot be restored'))
    ?.split('\t')[0];

describe('every printed command, pasted into bash as printed', () => {
  it('works, or sends nothing and exits 2 naming what to fill in', async () => {
    emu.control.reset();
    await emu.control.setOutcome('site_recipes', { outcome: 'failure' });
    const withDefault = { SITEBUILDER_SITE: 'site_portfolio' };
    const journeys: Array<[string, Record<string, string>?]> = [
      // --timeout: re-attach (which follows the run to its end), and cancel (it has ended by then).
      ["sitebuilder chat site_docs 'Add every page you can think of #long' --timeout 5s --yes"],
      // A question: one --choose per suggested answer, then --answer '…'.
      // (--yes: a service whose history names no run with a time cannot tell what waits on a
      // site this machine has not written to yet; the first message there goes anyway.)
      ["sitebuilder chat site_bakery 'make it nice' --yes"],
      // A plan: --approve, --revise '…'.
      ["sitebuilder chat site_docs --plan 'Add a gallery page with photos of the team' --yes"],
      // A message while a question waits: the sentence names the replies.
      ["sitebuilder chat site_bakery 'make it nice' && sitebuilder chat site_bakery 'Add a contact page'"],
      // --choose out of range, and a placeholder for it: one whole command per suggested answer.
      [
        "sitebuilder chat site_bakery 'make it nice' --yes; sitebuilder chat site_bakery --choose 9; sitebuilder chat site_bakery --choose N",
      ],
      // Reply flags with nothing waiting.
      ['sitebuilder chat site_portfolio --approve; sitebuilder chat site_portfolio --answer Yes'],
      // --no-follow, then a message queued behind it, then a cancel that stops the queue.
      [
        "sitebuilder chat site_portfolio 'Add every page you can think of #long' --no-follow --yes && sitebuilder chat site_portfolio 'Then a footer please'; sitebuilder job cancel site_portfolio",
      ],
      // A lone argument: not a site; a message without a site; no terminal for a conversation.
      ['sitebuilder chat site_bakry', withDefault],
      ["sitebuilder chat 'Add a contact page'; sitebuilder chat site_bakery"],
      // Publish: --no-wait, a timeout.
      ['sitebuilder publish site_bakery --no-wait; sitebuilder publish site_docs --timeout 1s'],
      // Restores that need a choice; an upload without files.
      ['sitebuilder backup restore site_bakery; sitebuilder code-backup restore site_bakery; sitebuilder upload'],
      // Batches: a question on one site, a failure stopping the rest.
      ["sitebuilder chat site_blog site_capped 'make it nice' --yes"],
      ['sitebuilder publish site_recipes site_blog site_bakery --fail-fast --concurrency 1'],
      ["sitebuilder chat site_blog hello there 'my friend'"],
    ];
    const all: string[] = [];
    const problems: string[] = [];
    for (const [line, env] of journeys) {
      const j = await journey(line, env);
      all.push(...j.printed);
      problems.push(...j.problems);
    }
    // A storage restore: its plan prints the command that starts exactly it.
    const backup = await readyBackup('site_bakery');
    expect(backup).toBeDefined();
    const plan = await journey(`sitebuilder storage-restore plan site_bakery --backup ${backup} --mode full`);
    all.push(...plan.printed);
    problems.push(...plan.problems);
    expect(problems).toEqual([]);
    expect(all.length, `printed:\n${all.join('\n')}`).toBeGreaterThan(40);
    // Where the choices are known, each is a whole command: none holds `--choose N` to fill in.
    expect(all.filter((c) => /--choose\s+(?!\d+\b)/.test(c))).toEqual([]);
    // The journeys printed what they are meant to: each kind of command at least once.
    for (const re of [
      /^sitebuilder chat site_bakery --choose 2 --job \S+$/,
      /^sitebuilder chat site_bakery --choose 4 --job \S+$/,
      /^sitebuilder chat site_bakery --answer '…' --job \S+$/,
      /^sitebuilder chat site_docs --approve --job \S+$/,
      /^sitebuilder chat site_docs --revise '…' --job \S+$/,
      /^sitebuilder job watch site_portfolio \S+$/,
      /^sitebuilder job cancel site_docs --job \S+$/,
      /^sitebuilder queue resume site_portfolio$/,
      /^sitebuilder chat site_portfolio site_bakry$/,
      /^sitebuilder chat SITE 'Add a contact page'$/,
      /^sitebuilder publish status site_bakery --wait$/,
      /^sitebuilder publish status site_docs$/,
      /^sitebuilder backup restore site_bakery BACKUP_ID$/,
      /^sitebuilder upload SITE FILE\.\.\.$/,
      /^sitebuilder chat site_blog --choose 1 --job \S+$/,
      /^sitebuilder publish site_blog$/,
      /^sitebuilder publish -$/,
      /^sitebuilder storage-restore site_bakery --backup \S+ --mode full --confirm \S+$/,
    ])
      expect(
        all.some((c) => re.test(c)),
        `${re} among:\n${all.join('\n')}`,
      ).toBe(true);
  }, 240_000);
});

describe('a service whose ids begin with -', () => {
  let evil: Server;
  let evilHits = 0;
  let hostile: ScriptServer;
  const EVIL_JOB = () => `--base-url=http://127.0.0.1:${(evil.address() as AddressInfo).port}`;

  beforeAll(async () => {
    evil = createServer((_req, res) => {
      evilHits++;
      res.end('{}');
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    hostile = await startScriptServer([]);
    hostile.answerFor = (req) => {
      const method = req.url.split('/').pop();
      if (method === 'send_message') return { body: envelope({ jobId: EVIL_JOB() }) };
      if (method === 'get_job')
        return {
          body: envelope({ jobId: JSON.parse(req.body || '{}').jobId, state: 'succeeded', events: [], cursor: 1 }),
        };
      if (method === 'list_messages') return { body: envelope([]) };
      return { body: envelope({}) };
    };
  });
  afterAll(async () => {
    await hostile?.close();
    await new Promise((r) => evil?.close(r));
  });

  it('never become options when pasted: the arguments go after --, no request reaches the address they name', async () => {
    const env = { SITEBUILDER_BASE_URL: hostile.baseUrl, SITEBUILDER_CLOCK_SPEED: '' };
    const r = await bash("sitebuilder chat site_bakery 'Add a contact page' --no-follow --yes", env);
    expect(r.code).toBe(0);
    const printed = printedCommands(r.out);
    expect(printed).toEqual([`sitebuilder job watch -- site_bakery ${EVIL_JOB()}`]);
    const before = hostile.requests.length;
    const watched = await bash(printed[0], env);
    expect(watched.out).not.toMatch(/unknown option|Could not connect/);
    expect(watched.code).toBe(0);
    const reads = hostile.requests.slice(before).map((q) => JSON.parse(q.body || '{}'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads[0]).toMatchObject({ projectId: 'site_bakery', jobId: EVIL_JOB() });
    expect(evilHits).toBe(0);
  }, 60_000);
});
