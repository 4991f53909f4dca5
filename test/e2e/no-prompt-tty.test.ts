// In a real terminal (tmux), what turned prompts off is named: `CI` set (as a CI runner or a
// person's shell may leave it), or --json. The refusal says the variable and its value, so the
// person knows what to unset, and nothing is sent.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { expectFits } from '../helpers/screen.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
let emu: RunningEmulator;
const sessions: TmuxSession[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
});
afterAll(() => emu.close());

function terminal(argv: string[], env: Record<string, string>, cols: number): TmuxSession {
  const t = new TmuxSession(
    [process.execPath, BIN, ...argv],
    {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-noprompt-')), 'config'),
      TERM: 'xterm-256color',
      ...env,
    },
    { cols, rows: 24 },
  );
  sessions.push(t);
  return t;
}

const flat = (s: string) => s.replace(/\s*\n\s*/g, ' ');

describe.skipIf(!hasTmux)('prompts turned off in a terminal', () => {
  for (const cols of [80, 40]) {
    it(`names CI in chat's refusal at ${cols} columns, sending nothing`, async () => {
      emu.control.clearLog();
      const t = terminal(['chat', 'site_bakery'], { CI: 'true' }, cols);
      const screen = await t.waitFor(/^EXIT=\d+$/m);
      expect(screen).toMatch(/^EXIT=2$/m);
      expect(flat(screen)).toContain('A conversation needs a terminal, and prompts are off here: CI is set (CI=true).');
      expect(emu.control.log({ method: 'send_message' })).toEqual([]);
      expectFits(screen, cols, { words: ['site_bakery', "'…'"] });
    });
  }

  it('names --json, and CI in a confirmation too', async () => {
    const json = terminal(['chat', 'site_bakery', '--json'], {}, 80);
    expect(await json.waitFor(/^EXIT=\d+$/m)).toContain('prompts are off here: --json is given');
    const clear = terminal(['storage-backup', 'clear', 'site_bakery'], { CI: '1' }, 80);
    const said = flat(await clear.waitFor(/^EXIT=\d+$/m));
    expect(said).toContain('EXIT=5');
    expect(said).toContain('no prompt is possible here (CI is set (CI=1)); pass --yes to confirm');
  });
});
