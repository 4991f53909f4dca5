// The storage-restore walkthrough in a real terminal (tmux), driving the built binary against
// an emulator on port 0: pick a backup, the mode, browse and tick a file and a folder, see the
// plan, change the storage before confirming so the service answers 409, see the new plan
// beside the old with what changed marked, confirm again, and follow the restore to completed;
// at 80 and 40 columns, the backup picker's rows aligned, the label before the id, the backups
// that cannot be restored shown but not reachable, and the browse redrawn in place.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { expectFits } from '../helpers/screen.js';
import { rx } from '../helpers/shapes.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
let emu: RunningEmulator;
let session: TmuxSession | undefined;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 20 });
});
afterAll(async () => {
  session?.kill();
  await emu.close();
});

const control = async (verb: string, path: string, body?: unknown) =>
  (
    (await (
      await fetch(`${emu.baseUrl}/_emulator/${path}`, {
        method: verb,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as any
  ).data;

describe.skipIf(!hasTmux)('storage-restore walkthrough in a terminal', () => {
  for (const cols of [80, 40]) {
    it(`picks, browses, ticks, shows the plan, handles a 409 by showing both plans, and follows to completed, at ${cols} columns`, async () => {
      emu.control.reset();
      emu.control.setClock({ speed: 20 });
      session?.kill();
      const t = (session = new TmuxSession(
        [process.execPath, BIN, 'storage-restore', 'site_bakery'],
        {
          SITEBUILDER_BASE_URL: emu.baseUrl,
          SITEBUILDER_TOKEN: DEMO_TOKENS.full,
          // The CLI's waits (the poll floor) keep pace with the emulator's clock (docs/emulator.md).
          SITEBUILDER_CLOCK_SPEED: '20',
          SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-tty-')), 'config'),
          TERM: 'xterm-256color',
        },
        { cols, rows: 50 },
      ));
      const first = await t.waitForPrompt(/Which storage backup\?/);
      // Newest first by their creation time, whatever the service's order; the two that read as
      // unrestorable last, with the reason, and not to be picked.
      expect(first.replace(/\s*\n\s*/g, ' ')).toMatch(
        rx()`These cannot be restored, so they are shown last and cannot be picked: ${'sbk'} \(failed\), ${'sbk'} \(older format\)\.`,
      );
      const rows = first.slice(first.indexOf('? Which storage backup?')).split('\n').slice(1, 5);
      expect(rows[0]).toMatch(/^▸ \d{4}-\d\d-\d\d.* Before the m/);
      expect(rows[1]).toContain('Weekly backup');
      expect(rows[2]).toMatch(/\(failed\) Dai/);
      expect(rows[3]).toMatch(/\(older/);
      // The rows are aligned: each cell starts in the same column on every row.
      const starts = (l: string) => [...l.slice(2).matchAll(/(?:^|(?<= {2}))\S/g)].map((m) => m.index).join(',');
      expect(new Set(rows.map(starts)).size).toBe(1);
      // The label comes first; the id, where it shows, last and whole.
      for (const row of rows) expect(row).toMatch(/^[▸ ] \d{4}-\d\d-\d\d/);
      expectFits(first, cols);
      // Down skips nothing it should not: the weekly backup is the second, and the last two cannot be reached.
      await t.send('Down', 'Down', 'Down', 'Enter');
      const picked = await t.waitForPrompt(/Restore what\?/);
      expect(picked.replace(/\s*\n\s*/g, ' ')).toMatch(/✔ Which storage backup\? \(newest first\) · \S+/);
      await t.send('Down', 'Enter');
      await t.waitForPrompt(/^\? \/ +\(0\/200 ticked/);
      await t.send('Down', 'Down', 'Down', 'Enter'); // open images/
      await t.waitForPrompt(/^\? \/images\/ +\(0\/200 ticked/);
      // The keys are said under the list, whole at every width.
      expect(await t.waitFor(/Space or Enter ticks · Enter opens/)).toBeTruthy();
      await t.send('Down', 'Space'); // tick hero.jpg: Space ticks as Enter does
      const ticked = await t.waitForPrompt(/^\? \/images\/ +\(1\/200 ticked/);
      // The cursor stays on the line it ticked.
      expect(ticked).toMatch(/^▸ \[x\] hero\.jpg/m);
      await t.send('Up', 'Enter'); // .. up
      const root = await t.waitForPrompt(/^\? \/ +\(1\/200 ticked/);
      expect(root).toMatch(
        /images\/ \(whole folder\) +3 files, 6\.0 KiB \(1 ticked inside\)|images\/ \(whole folder\)/,
      );
      await t.send('Down', 'Enter'); // tick docs/ (whole folder)
      await t.waitForPrompt(/^\? \/ +\(2\/200 ticked/);
      await t.send('Up', 'Enter'); // Done
      const plan = await t.waitForPrompt(/Start the restore\? /);
      // Each step of the browse was redrawn in place: no answered step is left in the scrollback.
      expect(plan).not.toMatch(/✔ \/.*ticked/);
      expect(plan).not.toMatch(/^\? \/.*ticked/m);
      expect(plan.replace(/\s*\n\s*/g, ' ')).toContain('2 paths to restore: images/hero.jpg, docs/');
      const flat = plan.replace(/\s*\n\s*/g, ' ');
      expect(flat).toContain('docs/price list: 2025.pdf');
      expect(flat).toContain(
        'DELETED: 1 file (2.9 KiB), the other public or private copy of restored files: docs/menu.pdf (private)',
      );
      expectFits(plan, cols);

      // Someone changes the storage before the confirmation: the start is refused with a new plan.
      await control('POST', 'sites/site_bakery/storage-files', {
        path: 'docs/menu.pdf',
        visibility: 'private',
        size: 10,
      });
      await t.send('y', 'Enter');
      const again = await t.waitForPrompt(/Start with the new plan\? \(y\/N\)/);
      expect(again.replace(/\s*\n\s*/g, ' ')).toContain(
        'The storage changed since the plan you saw, so nothing was restored',
      );
      // The restore itself runs on a faster clock: the follower is paced by its own polls.
      emu.control.setClock({ speed: 200 });
      await t.send('y', 'Enter');
      const done = await t.waitFor(/EXIT=\d+/);
      expect(done).toContain('EXIT=0');
      expect(done).toMatch(/completed/);
      expect(done.replace(/\s*\n\s*/g, ' ')).toMatch(rx()`✓ Storage restore ${'srs'} completed`);

      const files = (await control('GET', 'sites/site_bakery/storage-files')).map(
        (f: any) => `${f.visibility}:${f.path}:${f.size}`,
      );
      expect(files).toContain('public:images/hero.jpg:4000');
      expect(files).toContain('public:docs/menu.pdf:2800');
      expect(files.filter((f: string) => f.startsWith('private:docs/menu.pdf'))).toEqual([]);
    }, 30_000);
  }
});
