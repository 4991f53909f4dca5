// What a new user's trial found at 80, 60 and 40 columns, in a real terminal (tmux, the built
// binary, an emulator on port 0): a storage restore's record (its times, its file counts, its
// ids) fits the width with every value whole, long values on their own lines; `storage-restore
// plan` heads what the restore deletes and overwrites, so it never reads as the skipped list,
// and wraps the skipped sentence; a table that cuts a value says once how to see it whole.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator } from '../../src/emulator/index.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { expectFits } from '../helpers/screen.js';
import { itemsIn } from '../helpers/shapes.js';
import { commandScreens } from '../helpers/command-screens.js';
import { hasTmux } from '../helpers/tmux.js';

const emulator = ownEmulators({ speed: 20 });

/** An emulator of the test's own (the tests run side by side), and the CLI's environment against it. */
async function fresh(): Promise<{ emu: RunningEmulator; env: Record<string, string> }> {
  const emu = await emulator();
  const env = {
    SITEBUILDER_BASE_URL: emu.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    // The CLI's waits (the poll floor) keep pace with the emulator's clock (docs/emulator.md).
    SITEBUILDER_CLOCK_SPEED: '20',
    SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-trial-')), 'config'),
    TERM: 'xterm-256color',
  };
  return { emu, env };
}

/** The weekly storage backup of site_bakery (a full restore of it deletes, overwrites and skips), as the shapes name it. */
async function weeklyBackup(emu: RunningEmulator): Promise<string> {
  const res = await fetch(`${emu.baseUrl}/v1/list_storage_backups`, {
    method: 'POST',
    body: JSON.stringify({ projectId: 'site_bakery' }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.full}` },
  });
  const records = itemsIn('list_storage_backups', ((await res.json()) as { data: unknown }).data);
  const weekly = records.find((b) => JSON.stringify(b).includes('Weekly backup'));
  return String(weekly.backupId ?? weekly._id ?? weekly.id);
}

const TIME = /\d{4}-\d\d-\d\d \d\d:\d\d UTC/;

describe.skipIf(!hasTmux).concurrent('a new user’s trial, at every width', () => {
  for (const cols of [80, 60, 40]) {
    it(`storage-restore plan, the restore and its status fit ${cols} columns, values whole`, async () => {
      const { emu, env } = await fresh();
      const backup = await weeklyBackup(emu);
      const plan = `storage-restore plan site_bakery --backup ${backup} --mode full`;
      const restore = `storage-restore site_bakery --backup ${backup} --mode full --yes`;
      const first = await commandScreens(env, cols, [plan, restore]);

      const planned = first.get(plan) ?? '';
      expect(planned).toContain('code 0');
      expectFits(planned, cols, { words: [backup] });
      // The skipped list, then a heading, then what is deleted and overwritten under it.
      const skipped = planned.search(/^Skipped \(storage no longer/m);
      const heading = planned.search(/^Restore storage backup\b/m);
      const deleted = planned.search(/^ {2}- DELETED: /m);
      expect(skipped).toBeGreaterThan(-1);
      expect(heading).toBeGreaterThan(skipped);
      expect(deleted).toBeGreaterThan(heading);
      // Right above the first bullet (wrapped where the terminal is narrow).
      expect(planned.slice(heading, deleted).replace(/\s+/g, ' ').trim()).toBe(
        `Restore storage backup ${backup} on site site_bakery in full:`,
      );
      // The skipped sentence is wrapped, not folded by the terminal.
      expect(planned.replace(/\s*\n\s*/g, ' ')).toContain(
        'Skipped (storage no longer accepts these paths; they stay as they are):',
      );
      expect(planned.slice(heading)).toMatch(/^ {2}- OVERWRITTEN with the backup’s/m);

      const done = first.get(restore) ?? '';
      expect(done).toContain('code 0');
      const restoreId = /^restore(?: +|\n {2})(\S+)$/m.exec(done)?.[1] ?? 'no restore id on the screen';
      const safety =
        /^before restore backup(?: +|\n {2})(\S+)$/m.exec(done)?.[1] ?? 'no Before restore backup on the screen';

      const status = `storage-restore status site_bakery ${restoreId}`;
      const second = await commandScreens(env, cols, [status]);
      for (const screen of [done, second.get(status) ?? '']) {
        expectFits(screen, cols, { words: [restoreId, backup, safety] });
        // Each time whole on one line (beside its key, or under it), never folded.
        const times = screen.split('\n').filter((l) => /^ *(started|completed)\b|\d{4}-\d\d-\d\d/.test(l));
        expect(times.filter((l) => TIME.test(l))).toHaveLength(2);
        expect(screen).not.toMatch(/^UTC$/m);
        // The counts read whole, words unbroken (here or wrapped at a space).
        expect(screen.replace(/\s+/g, ' ')).toMatch(/ \d+ added, \d+ replaced, \d+ removed, \d+ skipped /);
      }
    }, 60_000);
  }

  for (const cols of [80, 60]) {
    it(`a table that cut a value says once how to see it whole, at ${cols} columns`, async () => {
      const { env } = await fresh();
      const lists = ['message list site_bakery', 'code-backup list site_bakery'];
      const shown = await commandScreens(env, cols, [...lists, 'code-backup list site_bakery --quiet']);
      let cut = 0;
      for (const command of lists) {
        const screen = shown.get(command) ?? '';
        expect(screen, command).toContain('code 0');
        expectFits(screen, cols);
        // Where a value was cut (the alternate shapes' long ids may make blocks instead), once.
        const hints = screen.match(/Values cut with … to fit show whole with\s+`\| cat`\s+or\s+--json\./g) ?? [];
        expect(hints, command).toHaveLength(screen.includes('…') ? 1 : 0);
        if (screen.includes('…')) cut++;
      }
      expect(cut).toBeGreaterThan(0);
      expect(shown.get('code-backup list site_bakery --quiet')).not.toContain('Values cut');
    }, 60_000);
  }
});
