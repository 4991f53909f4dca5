// Every command sitebuilder prints, pasted exactly into bash, does what its sentence says or
// sends nothing and exits 2 naming what to fill in (printed-commands-chat.test.ts says how; the
// file is split so that its halves run side by side). Here: publish, restores that need a
// choice, an upload without files, the batch summaries, a storage restore plan. And a hostile
// service whose ids begin with `-` (`--base-url=…`) gets its printed commands pasted too: no
// request ever leaves for the address it names.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { pastingShell, printedCommands } from '../helpers/pasted-commands.js';
import { envelope, type ScriptServer, startScriptServer } from '../helpers/script-server.js';
import { SHAPES } from '../helpers/shapes.js';

const SPEED = 60;
const emulator = ownEmulators({ speed: SPEED });

/** A prompt against an emulator of the test's own, and the emulator. */
async function fresh() {
  const emu = await emulator();
  return { emu, shell: pastingShell(() => emu, SPEED) };
}

interface StorageBackups {
  backups: Record<string, Array<{ backupId: string; createdAt: number; failed?: boolean; format: number }>>;
}

/** A storage backup of the site that can be restored: the newest that did not fail, in the newest format. */
function readyBackup(emu: RunningEmulator, site: string): string | undefined {
  const all = (emu.state.domains.storageBackups as StorageBackups).backups[site] ?? [];
  const format = Math.max(...all.map((b) => b.format));
  return all.filter((b) => !b.failed && b.format === format).sort((a, b) => b.createdAt - a.createdAt)[0]?.backupId;
}

describe.concurrent('every printed command of publish, restores and batches, pasted into bash as printed, works or sends nothing and exits 2 naming what to fill in', () => {
  it('publish, restores that need a choice, an upload without files', async () => {
    const { emu, shell } = await fresh();
    // A publish of site_docs outlasts its --timeout whatever the load (one takes 5 emulated
    // seconds, 83 ms here: a slow start of the CLI could see it live, and print nothing).
    await emu.control.setOutcome('site_docs', { outcome: 'slow', slowSeconds: 3600 });
    // Publish: --no-wait, a timeout.
    await shell.journey('sitebuilder publish site_bakery --no-wait; sitebuilder publish site_docs --timeout 1s');
    // Restores that need a choice; an upload without files.
    await shell.journey(
      'sitebuilder backup restore site_bakery; sitebuilder code-backup restore site_bakery; sitebuilder upload',
    );
    shell.expectPrinted(
      [
        /^sitebuilder publish status site_bakery --wait$/,
        /^sitebuilder publish status site_docs$/,
        /^sitebuilder backup restore site_bakery BACKUP_ID$/,
        /^sitebuilder upload SITE FILE\.\.\.$/,
      ],
      5,
    );
  });

  it('a batch that meets a question', async () => {
    const { shell } = await fresh();
    await shell.journey("sitebuilder chat site_blog site_capped 'make it nice' --yes");
    shell.expectPrinted(
      [/^sitebuilder chat site_blog --choose 1 --job \S+$/, /^sitebuilder chat site_capped --answer '…' --job \S+$/],
      9,
    );
  });

  it('a batch a failure stops, and a storage restore plan', async () => {
    const { emu, shell } = await fresh();
    await emu.control.setOutcome('site_recipes', { outcome: 'failure' });
    await shell.journey('sitebuilder publish site_recipes site_blog site_bakery --fail-fast --concurrency 1');
    // A storage restore: its plan prints the command that starts exactly it.
    const backup = readyBackup(emu, 'site_bakery');
    expect(backup).toBeDefined();
    await shell.journey(`sitebuilder storage-restore plan site_bakery --backup ${backup} --mode full`);
    shell.expectPrinted(
      [
        /^sitebuilder publish logs site_recipes$/,
        /^sitebuilder publish site_blog$/,
        /^sitebuilder publish -$/,
        /^sitebuilder storage-restore site_bakery --backup \S+ --mode full --confirm \S+$/,
      ],
      4,
    );
  });
});

// The answers are the test's own (a scripted server), whatever the shapes: the alternate
// project's run would repeat it.
describe.skipIf(SHAPES === 'alternate')('a service whose ids begin with -', () => {
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
    const shell = pastingShell(() => {
      throw new Error('The hostile server answers here, not an emulator.');
    }, SPEED);
    const r = await shell.bash("sitebuilder chat site_bakery 'Add a contact page' --no-follow --yes", env);
    expect(r.code).toBe(0);
    const printed = printedCommands(r.out);
    expect(printed).toEqual([`sitebuilder job watch -- site_bakery ${EVIL_JOB()}`]);
    const before = hostile.requests.length;
    const watched = await shell.bash(printed[0], env);
    expect(watched.out).not.toMatch(/unknown option|Could not connect/);
    expect(watched.code).toBe(0);
    const reads = hostile.requests.slice(before).map((q) => JSON.parse(q.body || '{}'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads[0]).toMatchObject({ projectId: 'site_bakery', jobId: EVIL_JOB() });
    expect(evilHits).toBe(0);
  }, 60_000);
});
