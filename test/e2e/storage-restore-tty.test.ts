// The storage-restore walkthrough in a real terminal (tmux), driving the built binary against
// an emulator on port 0: pick a backup, the mode, browse and tick a file and a folder, see the
// plan, change the storage before confirming so the service answers 409, see the new plan
// beside the old with what changed marked, confirm again, and follow the restore to completed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
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
  it('picks, browses, ticks, shows the plan, handles a 409 by showing both plans, and follows to completed', async () => {
    const t = (session = new TmuxSession(
      [process.execPath, BIN, 'storage-restore', 'site_bakery'],
      {
        SITEBUILDER_BASE_URL: emu.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        // The CLI's waits (the poll floor) keep pace with the emulator's clock (docs/emulator.md).
        SITEBUILDER_CLOCK_SPEED: '20',
        SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-tty-')), 'config'),
      },
      // Wide enough for a whole label beside a long (UUID) id: a narrower terminal cuts the label.
      { cols: 160, rows: 50 },
    ));
    const first = await t.waitForPrompt(/Which storage backup\?/);
    // Newest first by their creation time, whatever the service's order; the two that look
    // unrestorable last, marked (the service decides).
    expect(first).toMatch(
      rx()`These look like they cannot be restored, so they come last \(the service decides\): ${'sbk'}\s+\(failed\),\s+${'sbk'}\s+\(older\s+format\)\.`,
    );
    expect(first).toMatch(
      /Before the menu update.*\n.*Weekly backup.*\n.*Daily backup {2}\(looks like it cannot be restored: failed\).*\n.*Legacy backup {2}\(looks like it cannot be restored: older format\)/,
    );
    expect(first).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+10 KB\s+6 files\s+Weekly backup/);
    t.send('Down', 'Enter');
    await t.waitForPrompt(/Restore what\?/);
    t.send('Down', 'Enter');
    await t.waitForPrompt(/^\? \/ +\(0\/200 ticked/);
    t.send('Down', 'Down', 'Down', 'Enter'); // open images/
    await t.waitForPrompt(/^\? \/images\/ +\(0\/200 ticked/);
    t.send('Down', 'Enter'); // tick hero.jpg
    await t.waitForPrompt(/^\? \/images\/ +\(1\/200 ticked/);
    t.send('Down', 'Enter'); // .. up
    const root = await t.waitForPrompt(/^\? \/ +\(1\/200 ticked/);
    expect(root).toContain('images/ (whole folder)  3 files, 6.0 KB (1 ticked inside)');
    t.send('Down', 'Enter'); // tick docs/ (whole folder)
    const ticked = await t.waitForPrompt(/^\? \/ +\(2\/200 ticked/);
    // The answered question left above the new one shows the folder ticked, not as it was.
    expect(ticked).toMatch(/\(1\/200 ticked.*\[x\] docs\/ \(whole folder\)/);
    expect(ticked).not.toMatch(/\(1\/200 ticked.*\[ \] docs\//);
    t.send('Enter'); // Done
    const plan = await t.waitForPrompt(/Start the restore\? /);
    expect(plan).toMatch(/^Files replaced +2$/m);
    expect(plan).toMatch(/^Files removed +1$/m);
    expect(plan).toContain('docs/price list: 2025.pdf');
    expect(plan).toContain(
      'DELETED: 1 file (2.9 KB), the other public or private copy of restored files: docs/menu.pdf (private)',
    );

    // Someone changes the storage before the confirmation: the start is refused with a new plan.
    await control('POST', 'sites/site_bakery/storage-files', {
      path: 'docs/menu.pdf',
      visibility: 'private',
      size: 10,
    });
    t.send('y', 'Enter');
    const again = await t.waitForPrompt(/Start with the new plan\? \(y\/N\)/);
    expect(again).toContain('The storage changed since the plan you saw, so nothing was restored');
    expect(again).toMatch(/^WHAT +YOU SAW +NEW PLAN$/m);
    expect(again).toMatch(/^~ Bytes removed +2\.9 KB +10 B$/m);
    // The restore itself runs on a faster clock: the follower is paced by its own polls.
    emu.control.setClock({ speed: 200 });
    t.send('y', 'Enter');
    const done = await t.waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=0');
    expect(done).toMatch(/status\s+completed/);
    expect(done).toMatch(rx()`✓ Storage restore ${'srs'} completed`);

    const files = (await control('GET', 'sites/site_bakery/storage-files')).map(
      (f: any) => `${f.visibility}:${f.path}:${f.size}`,
    );
    expect(files).toContain('public:images/hero.jpg:4000');
    expect(files).toContain('public:docs/menu.pdf:2800');
    expect(files.filter((f: string) => f.startsWith('private:docs/menu.pdf'))).toEqual([]);
  }, 30_000);
});
