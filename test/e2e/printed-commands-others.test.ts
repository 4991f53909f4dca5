// Every command sitebuilder prints, pasted exactly into bash, does what its sentence says or
// sends nothing and exits 2 naming what to fill in (printed-commands-chat.test.ts says how; the
// file is split so that its halves run side by side). Here: publish, restores that need a
// choice, an upload without files, the batch summaries, a storage restore plan. And a hostile
// service whose ids begin with `-` (`--base-url=…`) gets its printed commands pasted too: no
// request ever leaves for the address it names.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { pastingShell, printedCommands } from '../helpers/pasted-commands.js';
import { envelope, type ScriptServer, startScriptServer } from '../helpers/script-server.js';
import { SHAPES } from '../helpers/shapes.js';

const SPEED = 60;
let emu: RunningEmulator;
const shell = pastingShell(() => emu, SPEED);

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: SPEED });
});
afterAll(() => emu?.close());

interface StorageBackups {
  backups: Record<string, Array<{ backupId: string; createdAt: number; failed?: boolean; format: number }>>;
}

/** A storage backup of the site that can be restored: the newest that did not fail, in the newest format. */
function readyBackup(site: string): string | undefined {
  const all = (emu.state.domains.storageBackups as StorageBackups).backups[site] ?? [];
  const format = Math.max(...all.map((b) => b.format));
  return all.filter((b) => !b.failed && b.format === format).sort((a, b) => b.createdAt - a.createdAt)[0]?.backupId;
}

describe('every printed command of publish, restores and batches, pasted into bash as printed', () => {
  it('works, or sends nothing and exits 2 naming what to fill in', async () => {
    await emu.control.setOutcome('site_recipes', { outcome: 'failure' });
    // A publish of site_docs outlasts its --timeout whatever the load (one takes 5 emulated
    // seconds, 83 ms here: a slow start of the CLI could see it live, and print nothing).
    await emu.control.setOutcome('site_docs', { outcome: 'slow', slowSeconds: 3600 });
    const all: string[] = [];
    const problems: string[] = [];
    /** What each journey printed, for a failure to show. */
    const transcript: string[] = [];
    const journey = async (line: string) => {
      const j = await shell.journey(line);
      all.push(...j.printed);
      problems.push(...j.problems);
      transcript.push(`$ ${line}\n${j.out}`);
    };
    // Publish: --no-wait, a timeout.
    await journey('sitebuilder publish site_bakery --no-wait; sitebuilder publish site_docs --timeout 1s');
    // Restores that need a choice; an upload without files.
    await journey(
      'sitebuilder backup restore site_bakery; sitebuilder code-backup restore site_bakery; sitebuilder upload',
    );
    // Batches: a question on one site, a failure stopping the rest.
    await journey("sitebuilder chat site_blog site_capped 'make it nice' --yes");
    await journey('sitebuilder publish site_recipes site_blog site_bakery --fail-fast --concurrency 1');
    // A storage restore: its plan prints the command that starts exactly it.
    const backup = readyBackup('site_bakery');
    expect(backup).toBeDefined();
    await journey(`sitebuilder storage-restore plan site_bakery --backup ${backup} --mode full`);
    expect(problems).toEqual([]);
    expect(all.length, `printed:\n${all.join('\n')}`).toBeGreaterThan(18);
    // Where the choices are known, each is a whole command: none holds `--choose N` to fill in.
    expect(all.filter((c) => /--choose\s+(?!\d+\b)/.test(c))).toEqual([]);
    // The journeys printed what they are meant to: each kind of command at least once.
    for (const re of [
      /^sitebuilder publish status site_bakery --wait$/,
      /^sitebuilder publish status site_docs$/,
      /^sitebuilder backup restore site_bakery BACKUP_ID$/,
      /^sitebuilder upload SITE FILE\.\.\.$/,
      /^sitebuilder chat site_blog --choose 1 --job \S+$/,
      /^sitebuilder chat site_capped --answer '…' --job \S+$/,
      /^sitebuilder publish logs site_recipes$/,
      /^sitebuilder publish site_blog$/,
      /^sitebuilder publish -$/,
      /^sitebuilder storage-restore site_bakery --backup \S+ --mode full --confirm \S+$/,
    ])
      expect(
        all.some((c) => re.test(c)),
        `${re} in:\n${transcript.join('\n')}`,
      ).toBe(true);
  }, 240_000);
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
