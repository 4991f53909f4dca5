// Every listing fits the terminal (docs/guide.md "Fitting the terminal"): the built binary in a real
// terminal (tmux) at 80 and 40 columns, against an emulator on port 0. No line is folded by the
// terminal (a table row that wraps, a word cut at the edge), ids show whole; piped, the same
// commands print full values as tab-separated rows.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { expectFits } from '../helpers/screen.js';
import { ID, itemsIn, SHAPES } from '../helpers/shapes.js';
import { commandScreens } from '../helpers/command-screens.js';
import { hasTmux } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
let emu: RunningEmulator;
let env: Record<string, string>;

/**
 * Each listing, and words that must show whole on the screen (ids, names). The ids the emulator
 * made are read from it (beforeAll): the alternate shapes make them in other forms.
 */
let LISTINGS: Array<[string, string[]]>;
/** The code backup of site_bakery (the piped row is checked whole). */
let codeBackup: string;
const call = async (method: string, body: unknown) =>
  fetch(`${emu.baseUrl}/v1/${method}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.full}` },
  });

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 20 });
  env = {
    SITEBUILDER_BASE_URL: emu.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    // The CLI's waits (the poll floor) keep pace with the emulator's clock (docs/emulator.md).
    SITEBUILDER_CLOCK_SPEED: '20',
    SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-fit-')), 'config'),
  };
  // A run that stalls for long, so that the next message waits in the queue whatever the load
  // (a run that only had many steps could end, and start the next, before the queue is read).
  expect(
    (await call('send_message', { projectId: 'site_bakery', prompt: 'Add a gallery #long #stall:3600' })).status,
  ).toBe(200);
  expect(
    (await call('send_message', { projectId: 'site_bakery', prompt: 'Then make the header bigger please' })).status,
  ).toBe(200);
  const records = async (method: string) =>
    itemsIn(method, ((await (await call(method, { projectId: 'site_bakery' })).json()) as { data: unknown }).data);
  const storageBackups = (await records('list_storage_backups')).map((b) => String(b.backupId));
  codeBackup = String((await records('list_code_backups'))[0].codeBackupId);
  const queued = String((await records('list_queued_messages'))[0].queueItemId);
  const logs = JSON.stringify(await (await call('get_publish_logs', { projectId: 'site_bakery' })).json());
  const deployment = new RegExp(ID('dep')).exec(logs)?.[0] ?? 'no deployment id in the logs';
  LISTINGS = [
    ['site list --workspace ws_demo', ['site_portfolio', 'Ana Lima Portfolio']],
    ['storage-backup list site_bakery', [storageBackups[0], storageBackups[storageBackups.length - 1]]],
    ['backup list site_bakery', ['65f000000000000000000002', 'BK-000001']],
    ['code-backup list site_bakery', [codeBackup]],
    ['tools', ['restart_site_email_domain_verification', 'list_site_email_suppressions']],
    // The alternate shapes' history names no runs.
    ['message list site_bakery', SHAPES === 'default' ? ['job_000001'] : []],
    ['queue list site_bakery', [queued, 'Then make the header']],
    ['publish logs site_bakery', [deployment]],
    [`storage-backup browse site_bakery ${storageBackups[0]}`, ['images/', 'orders/']],
    ['email domains site_bakery', ['edom_bakery_news', 'sitebuilder email restart site_bakery edom_bakery_news']],
  ];
});
afterAll(() => emu.close());

/** The helps and typos of the help tests: no emulator answers them, so the default shapes' run alone has them. */
const HELPS: Array<[string, string[]]> =
  SHAPES === 'default'
    ? [
        ['help sit', []],
        ['help site create', ['--workspace', 'docs/guide.md#sites-and-workspaces']],
        ['site lsit', []],
      ]
    : [];

/** One terminal a width for the listings and the helps, both widths at once (the tests below share them). */
const terminals = new Map<number, Promise<Map<string, string>>>();
const shownAt = (cols: number): Promise<Map<string, string>> => {
  if (!terminals.has(cols))
    terminals.set(
      cols,
      commandScreens(
        { ...env, TERM: 'xterm-256color' },
        cols,
        [...LISTINGS, ...HELPS].map(([c]) => c),
        20_000,
      ),
    );
  return terminals.get(cols) as Promise<Map<string, string>>;
};

describe.skipIf(!hasTmux).concurrent('listings in a terminal', () => {
  it('fit 80 columns: every line, every id and name whole', async () => {
    const shown = await shownAt(80);
    for (const [command, words] of LISTINGS) {
      const screen = shown.get(command) ?? '';
      expect(screen, command).not.toMatch(/error/);
      expectFits(screen, 80, { words });
    }
    // Tables where they fit: a header line, columns two spaces apart, no borders.
    expect(shown.get('site list --workspace ws_demo')).toMatch(/^ID +NAME +WORKSPACE +UPDATED$/m);
    expect(shown.get('code-backup list site_bakery')).toMatch(new RegExp(`^${codeBackup} .*…$`, 'm'));
  });

  it('fit 40 columns: rows become key/value blocks, prose wraps at word boundaries', async () => {
    const shown = await shownAt(40);
    for (const [command, words] of LISTINGS) {
      const screen = shown.get(command) ?? '';
      expect(screen, command).not.toMatch(/error/);
      expectFits(screen, 40, { words });
    }
    // DNS host names and addresses wider than the screen are ids and words: whole, alone on their line.
    expect(shown.get('email domains site_bakery')).toMatch(
      /^ {2}host\nsb1k1\._domainkey\.mail\.sunrisebakery\.example$/m,
    );
    expect(shown.get('site list --workspace ws_demo')).toMatch(/^ID {9}site_portfolio\nNAME {7}Ana Lima Portfolio$/m);
    expect(shown.get('tools')).toMatch(/^METHOD\n {2}restart_site_email_domain_verification$/m);
  });

  for (const cols of [80, 40]) {
    it.skipIf(SHAPES !== 'default')(`help fits ${cols} columns, and \`help <typo>\` suggests the command`, async () => {
      const shown = await shownAt(cols);
      for (const typo of ['help sit', 'site lsit']) {
        const screen = shown.get(typo) ?? '';
        expect(screen).toMatch(/\(Did you mean (site|list)\?\)/);
        expect(screen).toContain('code 2');
        expect(screen).not.toContain('Usage:');
        expectFits(screen, cols);
      }
      const help = shown.get('help site create') ?? '';
      expect(help).toContain('code 0');
      expectFits(help, cols, { words: ['--workspace', 'docs/guide.md#sites-and-workspaces', 'picked from a list'] });
    });
  }

  it('piped, print every value whole, tab-separated, whatever the terminal', async () => {
    const res = await promisify(execFile)(process.execPath, [BIN, 'code-backup', 'list', 'site_bakery'], {
      env: { ...process.env, ...env, COLUMNS: '40' },
    });
    expect(res.stdout).toMatch(
      new RegExp(
        `^${codeBackup}\\t\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\t4\\tA warm one-page site for a neighbourhood bakery with opening hours and a menu\\.$`,
        'm',
      ),
    );
  });
});
