// No planted control or bidi character reaches any output (README.md "Reliability"). Every
// command runs against a hostile service (test/helpers/planting-proxy.ts: the emulator, with every
// class of escape sequence, C0, C1, DEL and the bidi controls planted in every string it
// answers, refusal messages and X-Request-Id included) in three modes: piped, --json, and a
// terminal with colour (an IO over buffers that says TTY). stdout and stderr are scanned whole.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTestIO } from '../../src/io/io.js';
import type { Choice, Prompter } from '../../src/io/prompter.js';
import { FORBIDDEN, PLANT, type PlantingProxy, startPlantingProxy } from '../helpers/planting-proxy.js';
import { tempConfigDir } from '../helpers/run.js';

/** Takes the first choice, declines confirmations, types a short text: every prompt a command shows is passed. */
class FirstChoicePrompter implements Prompter {
  canPrompt() {
    return true;
  }
  require() {}
  async input() {
    return 'A short answer';
  }
  async password() {
    return DEMO_TOKENS.full;
  }
  async confirm() {
    return false;
  }
  async select<T>(_m: string, choices: Choice<T>[]) {
    return choices[0].value;
  }
  async multiselect<T>(_m: string, choices: Choice<T>[]) {
    return choices.slice(0, 1).map((c) => c.value);
  }
}

type Mode = 'pipe' | 'json' | 'tty';

interface Outcome {
  argv: string[];
  mode: Mode;
  code: number;
  stdout: string;
  stderr: string;
}

let emu: RunningEmulator;
let proxy: PlantingProxy;
const clock = new FakeClock();
let file: string;

async function cli(argv: string[], mode: Mode, extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const io = createTestIO({ tty: mode === 'tty' });
  io.stdinStream.end(argv.includes('--with-token') ? DEMO_TOKENS.full : '');
  const full = mode === 'json' ? [...argv, '--json'] : argv;
  const code = await main(full, {
    io,
    env: {
      SITEBUILDER_CONFIG_DIR: tempConfigDir(),
      SITEBUILDER_BASE_URL: proxy.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      // A terminal in colour (FORCE_COLOR has no effect on the piped and JSON modes' stdout).
      ...(mode === 'tty' ? { TERM: 'xterm-256color' } : {}),
      ...extraEnv,
    },
    clock,
    prompter: mode === 'tty' ? new FirstChoicePrompter() : undefined,
    signal: new AbortController().signal,
  });
  const outcome = { argv: full, mode, code, stdout: io.stdoutText(), stderr: io.stderrText() };
  return outcome;
}

/**
 * What a clean output may hold on a terminal in colour: our SGR (bold, dim, colours, resets),
 * the spinner's line clearing and the playback's cursor moves (io.ts REWRITE_ROW: up one row; or
 * up N rows and clear below, to redraw the agent's Markdown). Our SGR: colours, bold, dim, and
 * the Markdown's italic, underline (links) and strikethrough.
 */
const OWN_SEQUENCES =
  /\u001b\[(?:[0-9;]*m|2K|J)|\u001b\[1A(?=\r\u001b\[2K)|\u001b\[\d+A(?=\r\u001b\[J)|\r(?=\u001b\[(?:2K|J))/g;
const OWN_SGR = /^\u001b\[(?:0|1|2|1;2|22|3|23|4|24|9|29|3[0-9]|9[0-7]|39)m$/;

function problems(o: Outcome): string[] {
  const found: string[] = [];
  for (const [name, text] of [
    ['stdout', o.stdout],
    ['stderr', o.stderr],
  ] as const) {
    const own = o.mode === 'tty' ? (text.match(OWN_SEQUENCES) ?? []) : [];
    for (const seq of own)
      if (seq.endsWith('m') && !OWN_SGR.test(seq)) found.push(`${name}: planted SGR ${JSON.stringify(seq)}`);
    const rest = o.mode === 'tty' ? text.replace(OWN_SEQUENCES, '') : text;
    const at = rest.search(FORBIDDEN);
    if (at >= 0) found.push(`${name}: ${JSON.stringify(rest.slice(Math.max(0, at - 40), at + 20))}`);
  }
  return found;
}

/** Command lines that need no state of their own; each runs piped, with --json and on a terminal. */
const LINES: string[][] = [
  ['workspace', 'list'],
  ['workspace', 'list', '--token', DEMO_TOKENS.readonly],
  ['site', 'list', '--workspace', 'ws_demo'],
  ['site', 'list', '--all'],
  ['site', 'view', 'site_bakery'],
  ['site', 'use', 'site_bakery'],
  ['site', 'create', '--workspace', 'ws_demo', '--prompt', 'A florist in Ghent with a shop'],
  ['site', 'create', '--workspace', 'ws_free', '--prompt', 'One site too many'],
  ['auth', 'status'],
  ['chat', 'site_bakery', 'Add a gallery page with six photos'],
  ['chat', 'site_portfolio', '#ask'],
  ['chat', 'site_portfolio', '--choose', '1'],
  ['chat', 'site_docs', '--plan', 'Move the FAQ to its own page'],
  ['chat', 'site_docs', '--approve'],
  ['message', 'list', 'site_bakery'],
  ['job', 'cancel', 'site_bakery'],
  ['publish', 'site_bakery'],
  ['publish', 'site_portfolio', '--no-wait'],
  ['publish', 'status', 'site_bakery'],
  ['publish', 'logs', 'site_bakery'],
  ['backup', 'list', 'site_bakery'],
  ['backup', 'restore', 'site_bakery'],
  ['backup', 'restore', 'site_bakery', '65f000000000000000000001', '--yes'],
  ['code-backup', 'list', 'site_bakery'],
  ['code-backup', 'restore', 'site_bakery'],
  ['code-backup', 'restore', 'site_bakery', 'cbk_000001', '--yes'],
  ['storage-backup', 'list', 'site_bakery'],
  ['storage-restore', 'site_bakery'],
  ['email', 'domains', 'site_bakery'],
  ['email', 'restart', 'site_bakery', 'edom_bakery_news', '--yes'],
  ['api', 'list_sites', '-f', 'workspaceId=ws_demo'],
  ['api', 'list_sites', '-f', 'workspaceId=ws_demo', '--paginate'],
  ['api', 'list_workspaces', '--include'],
  ['api', 'get_job', '-f', 'projectId=site_bakery', '-f', 'jobId=job_999999'],
  ['openapi'],
  ['tools'],
];

/** Everything: the lines above, then the flows that need ids the service made. */
async function everyCommand(mode: Mode): Promise<Outcome[]> {
  const ran: Outcome[] = [];
  const go = async (argv: string[], env: Record<string, string> = {}) => ran.push(await cli(argv, mode, env));
  for (const argv of LINES) await go(argv);
  await go(['auth', 'login', '--with-token', '--base-url', proxy.baseUrl], { SITEBUILDER_TOKEN: '' });
  // The queue: a message sent while the agent is busy waits; then every queue verb, and a run cancelled.
  await go(['chat', 'site_bakery', 'Add a blog with three posts', '--no-follow']);
  await go(['chat', 'site_bakery', 'Then a contact form', '--no-follow']);
  await go(['chat', 'site_bakery', 'And a map', '--no-follow']);
  const [first, second] = queue('site_bakery');
  await go(['queue', 'list', 'site_bakery']);
  await go(['queue', 'edit', 'site_bakery', first, 'A contact form with a map']);
  await go(['queue', 'move', 'site_bakery', second, '--first']);
  await go(['queue', 'remove', 'site_bakery', second, '--yes']);
  await go(['job', 'watch', 'site_bakery', lastJob('site_bakery')]);
  await go(['job', 'cancel', 'site_bakery', '--yes']);
  await go(['queue', 'resume', 'site_bakery']);
  // Storage: a text file uploaded, backed up, read back; the storage changed, then restored.
  await go(['upload', 'site_bakery', file, '--folder', 'notes']);
  await go(['storage-backup', 'create', 'site_bakery', '--wait']);
  const backup = newestStorageBackup('site_bakery');
  await go(['storage-backup', 'browse', 'site_bakery', backup]);
  await go(['storage-backup', 'read', 'site_bakery', backup, 'notes/notes.txt']);
  await go(['upload', 'site_bakery', file, '--folder', `later-${mode}`]);
  await go(['storage-restore', 'plan', 'site_bakery', '--backup', backup, '--mode', 'full']);
  await go(['storage-restore', 'site_bakery', '--backup', backup, '--mode', 'full', '--yes', '--no-wait']);
  await go(['storage-restore', 'status', 'site_bakery', lastRestore()]);
  await go(['storage-backup', 'clear', 'site_bakery', '--backup', backup, '--yes']);
  // A refusal whose message (and request id) the service wrote: planted like the rest.
  emu.control.addFault({ method: 'list_workspaces', status: 500, message: 'The database is on fire', times: 4 });
  await go(['workspace', 'list']);
  emu.control.clearFaults();
  return ran;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  proxy = await startPlantingProxy(emu.baseUrl);
  file = join(mkdtempSync(join(tmpdir(), 'sb-planted-')), 'notes.txt');
  // A text file (no NUL, which would make it binary) with every other planted character.
  writeFileSync(file, `Opening hours${PLANT.replace('\u0000', '')}\nMonday to Friday\n`);
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
});

/**
 * The one output left as it came: a file's bytes piped by `storage-backup read` (the user's own
 * file, for `> file`; on a terminal it is shown sanitized like everything else).
 */
const rawByDesign = (o: Outcome) => o.mode === 'pipe' && o.argv[0] === 'storage-backup' && o.argv[1] === 'read';

describe('planted control and bidi characters', () => {
  it.each(['pipe', 'json', 'tty'] as const)('reach no output of any command: %s', async (mode) => {
    const ran = await everyCommand(mode);
    const scanned = ran.filter((o) => !rawByDesign(o));
    const bad = scanned.flatMap((o) => problems(o).map((p) => `${o.argv.join(' ')} [${o.mode}] → ${p}`));
    expect(bad).toEqual([]);
    // The scan saw planted fields: most commands printed the marker that sat among the controls.
    const shown = scanned.filter((o) => `${o.stdout}${o.stderr}`.includes('PLANTED'));
    expect(shown.length).toBeGreaterThan(scanned.length / 2);
    // The file read back on a terminal was shown, cleaned; piped, it is the file as it was.
    const read = ran.find((o) => o.argv[1] === 'read');
    if (mode === 'tty') expect(read?.stdout).toContain('Opening hoursPLANTED');
    if (mode === 'pipe') expect(read?.stdout).toContain(PLANT.replace('\u0000', ''));
    if (mode !== 'json') return;
    // --json: every stdout is JSON (or NDJSON), every error a JSON document on stderr.
    for (const o of scanned)
      for (const text of [o.stdout, o.stderr].filter((t) => t.trim() !== ''))
        expect(() => parseJsonOrNdjson(text), `${o.argv.join(' ')}: ${text.slice(0, 200)}`).not.toThrow();
    // In JSON the planted characters are there, as \u escapes: the same value, valid JSON.
    const view = scanned.find((o) => o.argv[0] === 'site' && o.argv[1] === 'view');
    const strings: string[] = [];
    JSON.parse(view?.stdout ?? 'null', (_k, v) => {
      if (typeof v === 'string') strings.push(v);
      return v;
    });
    expect(strings).toContain(`Sunrise Bakery${PLANT}`);
    expect(view?.stdout).toContain('\\u202e');
    expect(view?.stdout).toContain('\\u009b');
  });
});

function parseJsonOrNdjson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  }
}

interface ChatSlice {
  sites: Record<string, { lastJobId?: string; queue: Array<{ queueItemId: string }> }>;
}

const chatSlice = () => emu.state.domains.chat as ChatSlice;
const queue = (site: string) => chatSlice().sites[site].queue.map((q) => q.queueItemId);

function newestStorageBackup(site: string): string {
  const all = (
    emu.state.domains.storageBackups as { backups: Record<string, Array<{ backupId: string; createdAt: number }>> }
  ).backups[site];
  return [...all].sort((a, b) => b.createdAt - a.createdAt)[0].backupId;
}

function lastRestore(): string {
  const restores = (emu.state.domains.storageBackups as { restores: Record<string, unknown> }).restores;
  return Object.keys(restores).at(-1) ?? 'srs_none';
}

function lastJob(site: string): string {
  return chatSlice().sites[site]?.lastJobId ?? 'job_000001';
}
