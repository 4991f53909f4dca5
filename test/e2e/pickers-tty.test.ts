// The pickers in a real terminal (tmux) at 80 and 40 columns, driving the built binary against
// an emulator on port 0: a site left out is picked from a list that typing filters, and keys
// typed while the list loads are not taken for the filter or the pick; `site create` offers the
// workspaces. Every line fits the screen. The tests run side by side, each with an emulator of
// its own (a fault one sets is met by its own command only).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator } from '../../src/emulator/index.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { expectFits } from '../helpers/screen.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const sessions: TmuxSession[] = [];
const emulator = ownEmulators({ speed: 20 });

afterAll(() => {
  for (const s of sessions) s.kill();
});

function terminal(emu: RunningEmulator, argv: string[], cols: number): TmuxSession {
  const t = new TmuxSession(
    [process.execPath, BIN, ...argv],
    {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      // The CLI's waits (the poll floor) keep pace with the emulator's clock (docs/emulator.md).
      SITEBUILDER_CLOCK_SPEED: '20',
      SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-pick-')), 'config'),
      TERM: 'xterm-256color',
    },
    { cols, rows: 24 },
  );
  sessions.push(t);
  return t;
}

const fault = (emu: RunningEmulator, body: unknown) =>
  fetch(`${emu.baseUrl}/_emulator/faults`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe.skipIf(!hasTmux).concurrent('pickers in a terminal', () => {
  for (const cols of [80, 40]) {
    it(`pick a site at ${cols} columns; keys typed while the list loads are dropped`, async () => {
      // The workspaces answer slowly: there is time to type before the list shows.
      const emu = await emulator();
      await fault(emu, { method: 'list_workspaces', latencyMs: 1500 });
      const t = terminal(emu, ['site', 'view'], cols);
      await t.waitFor(/Loading the sites…/);
      await t.send('-l', 'docs');
      await t.send('Enter');
      const list = await t.waitForPrompt(/Which site\?/);
      // Neither the filter nor the answer: every site is offered, nothing was picked.
      expect(list).toMatch(/^\? Which site\? … *$/m);
      for (const id of ['site_bakery', 'site_docs', 'site_blog', 'site_shop']) expect(list).toContain(id);
      expect(list).not.toContain('✔');
      expectFits(list, cols, { words: ['site_portfolio', '(type to filter)'] });
      await t.send('-l', 'portf');
      await t.waitFor((s) => !s.includes('site_bakery'));
      await t.send('Enter');
      const done = await t.waitFor(/EXIT=\d+/);
      expect(done).toContain('EXIT=0');
      expect(done).toMatch(/^ID +site_portfolio$/m);
      expectFits(done, cols, { words: ['site_portfolio', 'Ana Lima Portfolio'] });
    });

    it(`offer the workspaces of site create at ${cols} columns`, async () => {
      const t = terminal(await emulator(), ['site', 'create', '--prompt', 'A flower shop', '--no-follow'], cols);
      const list = await t.waitForPrompt(/Which workspace\?/);
      for (const id of ['ws_demo', 'ws_free', 'ws_capped', 'ws_broke']) expect(list).toContain(id);
      expectFits(list, cols, { words: ['Demo Studio'] });
      await t.send('-l', 'studio');
      await t.waitFor((s) => !s.includes('ws_free'));
      await t.send('Enter');
      const done = await t.waitFor(/EXIT=\d+/);
      expect(done).toContain('EXIT=0');
      expect(done.replace(/\s+/g, ' ')).toMatch(/Created site \S+ in workspace ws_demo/);
      expectFits(done, cols);
    });

    for (const [command, question] of [
      ['backup', /Which backup\?/],
      ['code-backup', /Which code backup\?/],
    ] as const)
      it(`keep the label before the id in the ${command} picker at ${cols} columns`, async () => {
        const t = terminal(await emulator(), [command, 'restore', 'site_bakery'], cols);
        const screen = await t.waitForPrompt(question);
        const rows = screen
          .slice(screen.search(question))
          .split('\n')
          .slice(1)
          .filter((l) => /^[▸ ] \S/.test(l));
        expect(rows.length).toBeGreaterThan(0);
        // Each row starts with its date, as a person reads it to pick; an id, where it shows, comes last.
        for (const row of rows) expect(row).toMatch(/^[▸ ] \d{4}-\d\d-\d\d/);
        const starts = (l: string) => [...l.slice(2).matchAll(/(?:^|(?<= {2}))\S/g)].map((m) => m.index).join(',');
        expect(new Set(rows.map(starts)).size).toBe(1);
        expectFits(screen, cols);
        // A label cut with … says, once, above the list, which listing shows it whole.
        const hints = screen.match(/Labels cut with … to fit show whole in/g) ?? [];
        expect(hints).toHaveLength(rows.some((r) => r.includes('…')) ? 1 : 0);
        if (hints.length)
          expect(screen.replace(/\s*\n\s*/g, ' ')).toContain(`\`sitebuilder ${command} list site_bakery | cat\`.`);
        await t.send('C-c');
        await t.waitFor(/EXIT=\d+/);
      });
  }
});
