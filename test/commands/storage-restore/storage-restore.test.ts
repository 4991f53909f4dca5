// storage-restore and storage-backup against a real emulator on port 0: the plan and its
// confirm, the start, 409 with a new plan, selected restores, the walkthrough (scripted
// prompter; the real-terminal run is in test/e2e), and that nothing changes without a
// confirmation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { startMethodServer, type MethodServer } from '../../helpers/method-server.js';
import { run } from '../../helpers/run.js';
import { envelope } from '../../helpers/script-server.js';
import { ScriptedPrompter } from '../../helpers/scripted-prompter.js';
import { fieldName, rx, SHAPES, spelled } from '../../helpers/shapes.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;
let weekly: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(async () => {
  emu.control.reset();
  const res = await fetch(`${emu.baseUrl}/_emulator/sites/${SITE}/storage-backups`);
  weekly = ((await res.json()) as any).data.find((b: any) => b.label === 'Weekly backup').backupId;
  emu.control.clearLog();
});
afterAll(() => emu.close());

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
const storage = async () =>
  (await control('GET', `sites/${SITE}/storage-files`)).map((f: any) => `${f.visibility}:${f.path}:${f.size}`);
const calls = (method: string) => emu.control.log({ method });
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
const cli = async (argv: string[], opts: Parameters<typeof run>[1] = {}) => {
  const res = await run(argv, { env, clock, ...opts });
  return { ...res, stdout: plain(res.stdout), stderr: plain(res.stderr) };
};

describe('storage-restore plan', () => {
  it('prints the plan and its confirm value as JSON, restoring nothing', async () => {
    const before = await storage();
    const res = await cli(['storage-restore', 'plan', SITE, '--backup', weekly, '--mode', 'full', '--json']);
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(doc).toMatchObject({
      projectId: SITE,
      backupId: weekly,
      mode: 'full',
      started: false,
      plan: { filesAdded: 2, filesRemoved: 4, safetyBackup: true },
    });
    expect(doc.confirm).toMatch(/^rc_/);
    expect(calls('restore_storage_backup').map((c) => (c.args as any).confirm)).toEqual([undefined]);
    expect(await storage()).toEqual(before);
  });

  it('its `request` is the body of the start: `jq .request plan.json | sitebuilder api restore_storage_backup --input - -f confirm=…`', async () => {
    const doc = JSON.parse(
      (await cli(['storage-restore', 'plan', SITE, '-b', weekly, '--path', 'images/', '--json'])).stdout,
    );
    expect(doc.request).toEqual({ projectId: SITE, backupId: weekly, mode: 'selected', paths: ['images/'] });
    const res = await cli(['api', 'restore_storage_backup', '--input', '-', '-f', `confirm=${doc.confirm}`, '--yes'], {
      stdin: JSON.stringify(doc.request),
    });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).data).toMatchObject({
      started: true,
      restore: {
        status: spelled('restore_storage_backup', 'restore.status', 'running'),
        mode: 'selected',
        paths: ['images/'],
      },
    });
  });

  it('piped, names each file removed, replaced and skipped on a row of its own', async () => {
    const res = await cli(['storage-restore', 'plan', SITE, '-b', weekly, '-m', 'full']);
    expect(res.code).toBe(0);
    const rows = res.stdout.split('\n').filter((l) => /^(removed|replaced|skipped)\t/.test(l));
    expect(rows).toEqual([
      'removed\tcms/uploads/cake-of-the-week.jpg\tpublic',
      'removed\tdocs/menu.pdf\tprivate',
      'removed\timages/new-banner.png\tpublic',
      'removed\torders/2026-11.csv\tprivate',
      'replaced\tdocs/menu.pdf\tpublic',
      'replaced\timages/hero.jpg\tpublic',
      'skipped\tdocs/price list: 2025.pdf',
    ]);
    expect(res.stdout).toMatch(/^Files removed\t4$/m);
    expect(res.stdout).toMatch(/^Confirm\trc_[0-9a-f]+$/m);
    const refused = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full']);
    expect(refused.code).toBe(5);
    expect(refused.stdout).toContain('removed\torders/2026-11.csv\tprivate\n');
  });

  it('a plan that changes nothing says there is nothing to restore', async () => {
    const res = await cli(['storage-restore', 'plan', SITE, '-b', weekly, '--path', 'images/logo.png']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Files unchanged\t1$/m);
    expect(res.stderr).toMatch(
      rx()`^Nothing to restore: the storage of site site_bakery already matches backup ${'sbk'}`,
    );
    expect(res.stderr).not.toContain('--confirm');
    const json = await cli(['storage-restore', 'plan', SITE, '-b', weekly, '--path', 'images/logo.png', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ nothingToRestore: true, plan: { filesUnchanged: 1 } });
  });

  it('prints a readable plan with skipped files and the command that starts it', async () => {
    const res = await cli(['storage-restore', 'plan', SITE, '-b', weekly, '-m', 'full'], { tty: true, columns: 200 });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^PLAN\nFiles added +2\n/m);
    expect(res.stdout).toMatch(/^Files removed +4$/m);
    expect(res.stdout).toContain('docs/price list: 2025.pdf');
    expect(res.stdout).toContain(
      'DELETED: 4 files (6.3 KiB), files that are not in the backup: cms/uploads/cake-of-the-week.jpg (public)',
    );
    expect(res.stdout).toContain('1 file already the same, left as it is');
    expect(res.stderr).toMatch(
      rx()`sitebuilder storage-restore site_bakery --backup ${'sbk'} --mode full --confirm rc_[0-9a-f]+`,
    );
  });

  it('checks flags before sending anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--mode', 'full', '--path', 'images/'], /--path is only for --mode selected/],
      [['--mode', 'selected'], /needs at least one --path/],
      [
        ['--mode', 'selected', ...Array.from({ length: 201 }, (_, i) => ['--path', `f${i}`]).flat()],
        /at most 200 paths/,
      ],
      [['--mode', 'everything'], /Allowed choices are full, selected/],
    ];
    for (const [flags, message] of cases) {
      const res = await cli(['storage-restore', 'plan', SITE, '--backup', weekly, ...flags]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(message);
    }
    expect(calls('restore_storage_backup')).toHaveLength(0);
  });
});

describe('storage-restore without a terminal', () => {
  it('without --confirm or --yes: prints the plan and confirm, exits 5, changes nothing', async () => {
    const before = await storage();
    const res = await cli(['storage-restore', SITE, '--backup', weekly, '--mode', 'full', '--json']);
    expect(res.code).toBe(5);
    const doc = JSON.parse(res.stdout);
    expect(doc.confirm).toMatch(/^rc_/);
    expect(JSON.parse(res.stderr).error.message).toMatch(
      /needs confirmation .*--confirm rc_[0-9a-f]+ .*Nothing was restored/,
    );
    expect(await storage()).toEqual(before);
    expect(calls('restore_storage_backup')).toHaveLength(1);
    expect((await control('GET', `sites/${SITE}/storage-backups`)).length).toBe(4);
  });

  it('plan → storage changed → 409 exits 5 with the new plan → the new confirm starts and --wait follows it', async () => {
    const planned = JSON.parse(
      (await cli(['storage-restore', 'plan', SITE, '-b', weekly, '-m', 'full', '--json'])).stdout,
    );
    await control('POST', `sites/${SITE}/storage-files`, { path: 'images/late.png', size: 50 });
    const refused = await cli([
      'storage-restore',
      SITE,
      '-b',
      weekly,
      '-m',
      'full',
      '--confirm',
      planned.confirm,
      '--json',
    ]);
    expect(refused.code).toBe(5);
    const fresh = JSON.parse(refused.stdout);
    expect(fresh.plan.filesRemoved).toBe(5);
    expect(fresh.confirm).not.toBe(planned.confirm);
    // Said once: what happened, the request, and what to do (not the service's "Check the new plan" again).
    const said = JSON.parse(refused.stderr).error.message;
    expect(said).toMatch(
      /^The storage changed since the plan was made, so nothing was restored \(request \S+\)\. The new plan is printed above; check it, then start exactly it with --confirm rc_\w+\.$/,
    );
    expect(said.match(/new plan/gi)).toHaveLength(1);
    expect(await storage()).toContain('public:images/late.png:50');

    const done = await cli([
      'storage-restore',
      SITE,
      '-b',
      weekly,
      '-m',
      'full',
      '--confirm',
      fresh.confirm,
      '--wait',
      '--json',
    ]);
    expect(done.code).toBe(0);
    const doc = JSON.parse(done.stdout);
    expect(doc).toMatchObject({
      started: true,
      // The restore row as the service sends it.
      restore: {
        status: 'completed',
        backupId: weekly,
        [fieldName('restore_storage_backup', 'restore.safetyBackupId')]: expect.stringMatching(rx()`^${'sbk'}$`),
      },
    });
    expect(await storage()).not.toContain('public:images/late.png:50');
    expect(await storage()).toContain('public:images/old-banner.png:900');
    const polls = calls('get_storage_restore_status');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.length).toBeLessThan(10);
  });

  it('a selected restore of a folder with --yes: plan and start in one go, piped output', async () => {
    const res = await cli(['storage-restore', SITE, '-b', weekly, '--path', 'images/', '--yes', '--wait']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(rx()`^restore\t${'srs'}\nstatus\tcompleted\n`);
    expect(res.stdout).toContain('mode\tselected');
    expect(res.stdout).toContain('paths\timages/');
    const now = await storage();
    expect(now).toContain('public:images/old-banner.png:900');
    expect(now).toContain('public:cms/uploads/cake-of-the-week.jpg:2200');
    const sent = calls('restore_storage_backup').map((c) => c.args as any);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({
      mode: 'selected',
      paths: ['images/'],
      confirm: sent[0].confirm ?? expect.any(String),
    });
  });

  it('a second restore is refused naming the running one and how to follow it; status reads it', async () => {
    const first = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full', '--yes', '--no-wait', '--json']);
    expect(first.code).toBe(0);
    const id = JSON.parse(first.stdout).restore._id;
    const second = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full', '--yes']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('A restore of this storage is already running!');
    expect(second.stderr).toContain(`sitebuilder storage-restore status ${SITE} ${id} --wait`);
    const status = await cli(['storage-restore', 'status', SITE, id, '--json']);
    const running = spelled('get_storage_restore_status', 'status', 'running');
    expect(JSON.parse(status.stdout)).toMatchObject({ _id: id, status: running });
    const waited = await cli(['storage-restore', 'status', SITE, id, '--wait']);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain('status\tcompleted');
  });

  it('from a script, waits until completed as publish waits until live; --no-wait returns at once; --timeout exits 8', async () => {
    const started = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full', '--yes', '--no-wait']);
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    expect(id).toMatch(/^\S+$/);
    expect(started.stderr).toContain(`sitebuilder storage-restore status ${SITE} ${id} --wait`);
    const running = spelled('get_storage_restore_status', 'status', 'running');
    expect(JSON.parse((await cli(['storage-restore', 'status', SITE, id, '--json'])).stdout).status).toBe(running);
    expect((await cli(['storage-restore', 'status', SITE, id, '--wait'])).code).toBe(0);
    // Without a terminal and without --wait: followed to its end.
    const added = (path: string) => control('POST', `sites/${SITE}/storage-files`, { path, size: 50 });
    await added('images/one.png');
    const waited = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full', '--yes']);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain('status\tcompleted');
    expect(calls('get_storage_restore_status').length).toBeGreaterThan(1);
    await added('images/two.png');
    const timed = await cli([
      'storage-restore',
      SITE,
      '-b',
      weekly,
      '-m',
      'full',
      '--yes',
      '--timeout',
      '1s',
      '--json',
    ]);
    expect(timed.code).toBe(8);
    expect(JSON.parse(timed.stdout)).toMatchObject({ started: true });
    expect(JSON.parse(timed.stderr).error.message).toMatch(/is still \S+ after 1s \(--timeout\); it goes on/);
  });

  it('says which flag is missing (exit 5) when a question cannot be asked', async () => {
    const res = await cli(['storage-restore', SITE]);
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/--backup ID/);
    expect(calls('restore_storage_backup')).toHaveLength(0);
  });

  it('refuses backups that cannot be restored, with the service’s reason', async () => {
    const list = await control('GET', `sites/${SITE}/storage-backups`);
    const failed = list.find((b: any) => b.status === 'failed').backupId;
    const res = await cli(['storage-restore', 'plan', SITE, '-b', failed, '-m', 'full']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('This backup failed, so it cannot be restored!');
  });
});

describe('storage-restore walkthrough (scripted prompts)', () => {
  it('picks backup, mode and paths by browsing; shows the plan; a 409 shows old and new side by side and asks again', async () => {
    const prompter = new ScriptedPrompter([
      { select: /Weekly backup/ },
      { select: /^Selected/ },
      { select: 'open images/' },
      { select: '[ ] hero.jpg' },
      { select: '..' },
      { select: '[ ] docs/ (whole folder)' },
      { select: /^Done: restore the 2 ticked paths/ },
      {
        confirm: true,
        then: () =>
          control('POST', `sites/${SITE}/storage-files`, { path: 'docs/menu.pdf', visibility: 'private', size: 10 }),
      },
      { confirm: true },
    ]);
    const res = await cli(['storage-restore', SITE], { tty: true, columns: 200, prompter });
    expect(res.stderr).not.toMatch(/error/);
    expect(res.code).toBe(0);
    expect(prompter.remaining).toBe(0);
    // Advice only, newest first: the service decides when the plan is asked for.
    expect(res.stderr.replace(/\n {2}/g, ' ')).toMatch(
      rx()`These cannot be restored, so they are shown last and cannot be picked: ${'sbk'} \(failed\), ${'sbk'} \(older format\)\. \(Read from the listing; --backup ID sends one anyway, and the service decides\.\)\n`,
    );
    expect(prompter.asked[0]).toBe('Which storage backup? (newest first)');
    // Shown last with the reason first, and not to be picked.
    const backups = prompter.offered[0];
    expect(backups.map((c) => Boolean(c.disabled))).toEqual([false, false, true, true]);
    expect(backups[2].label).toMatch(/ {2}\(failed\) Daily backup +\S+$/);
    expect(backups[3].label).toMatch(/ {2}\(older format\) Legacy backup +\S+$/);
    expect(res.stderr).toMatch(/^Files replaced +2$/m);
    expect(res.stderr).toMatch(
      /DELETED: 1 file \(2\.9 KiB\), the other public or private copy of restored files: docs\/menu\.pdf \(private\)/,
    );
    // The new plan beside the one seen: what changed, marked, said in one sentence.
    expect(res.stderr).toMatch(
      /The storage changed since the plan you saw, so nothing was restored \(request \S+\); the new plan differs in 2 rows \(~ changed, \+ new, - no longer in it\):\nWHAT +YOU SAW +NEW PLAN\n~ Bytes removed +2\.9 KiB +10 B\n~ deleted: docs\/menu\.pdf \(private\) +2\.9 KiB +10 B\n/,
    );
    expect(prompter.asked.slice(-2)).toEqual(['Start the restore?', 'Start with the new plan?']);
    expect(res.stdout).toMatch(/status\s+completed/);
    const sent = calls('restore_storage_backup').map((c) => c.args as any);
    expect(sent.map((a) => a.paths)).toEqual([
      ['images/hero.jpg', 'docs/'],
      ['images/hero.jpg', 'docs/'],
      ['images/hero.jpg', 'docs/'],
    ]);
    expect(sent[2].confirm).not.toBe(sent[1].confirm);
  });

  it('declining the confirmation changes nothing (exit 130)', async () => {
    const before = await storage();
    const prompter = new ScriptedPrompter([{ confirm: false }]);
    const res = await cli(['storage-restore', SITE, '-b', weekly, '-m', 'full'], { tty: true, prompter });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain('Cancelled; nothing was restored.');
    expect(res.stderr).toMatch(/DELETED: 4 files/);
    expect(await storage()).toEqual(before);
    expect(calls('restore_storage_backup')).toHaveLength(1);
  });
});

// The plan as the reference shows it (counts only, no file names), and a start whose row has no
// id: nothing made up, nothing dropped without a word. No emulator: the same answers in either
// project, so run in the default one only.
describe.skipIf(SHAPES === 'alternate')('against answers of other shapes', () => {
  let server: MethodServer;
  beforeAll(async () => {
    server = await startMethodServer();
  });
  beforeEach(() => server.reset());
  afterAll(() => server.close());
  const other = async (argv: string[], opts: Parameters<typeof run>[1] = {}) => {
    const res = await run(argv, {
      env: { SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full },
      clock,
      ...opts,
    });
    return { ...res, stdout: plain(res.stdout), stderr: plain(res.stderr) };
  };
  const COUNTS = {
    filesAdded: 2,
    filesReplaced: 2,
    filesUnchanged: 1,
    filesRemoved: 4,
    bytesWritten: 6000,
    bytesRemoved: 6400,
    safetyBackup: true,
    filesSkipped: 1,
  };

  it('a plan of counts only: no file rows, and the output says the names were not given', async () => {
    server.answers.restore_storage_backup = { started: false, plan: COUNTS, confirm: 'rc_1' };
    const piped = await other(['storage-restore', 'plan', 'site_x', '-b', 'sb_1', '-m', 'full']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^Files removed\t4$/m);
    expect(piped.stdout).toMatch(/^Files skipped\t1$/m);
    expect(piped.stdout).not.toMatch(/^(removed|replaced|skipped)\t/m);
    expect(piped.stderr).toContain(
      'Names not given by the service’s plan (it gives counts): 4 removed files, 2 replaced files, 1 skipped file.',
    );
    const tty = await other(['storage-restore', 'plan', 'site_x', '-b', 'sb_1', '-m', 'full'], { tty: true });
    expect(tty.stdout).toContain('DELETED: 4 files (6.3 KiB), files that are not in the backup (names not given)');
    expect(tty.stdout).toContain('OVERWRITTEN with the backup’s version: 2 files (names not given)');
    expect(tty.stdout).toContain('1 file skipped (path no longer accepted), left as it is');
    expect(tty.stdout).toContain('Names not given by the service’s plan');
    // Some names under another list's name: those are rows, the rest are counted as not given.
    server.answers.restore_storage_backup = {
      started: false,
      plan: {
        ...COUNTS,
        filesToRemove: [{ filePath: 'a.txt', visibility: 'public' }, 'b.txt'],
        filesSkipped: ['c d.pdf'],
      },
      confirm: 'rc_2',
    };
    const some = await other(['storage-restore', 'plan', 'site_x', '-b', 'sb_1', '-m', 'full']);
    expect(some.stdout.split('\n').filter((l) => /^(removed|replaced|skipped)\t/.test(l))).toEqual([
      'removed\ta.txt\tpublic',
      'removed\tb.txt',
      'skipped\tc d.pdf',
    ]);
    expect(some.stderr).toContain('(it gives counts): 2 of the 4 removed files, 2 replaced files.');
  });

  it('a started restore whose row has no id prints no empty id and says it cannot be followed', async () => {
    server.answers.restore_storage_backup = (req) => {
      const args = JSON.parse(req.body);
      return {
        body: envelope(
          args.confirm
            ? { started: true, restore: { status: 'running' } }
            : { started: false, plan: COUNTS, confirm: 'rc_1' },
        ),
      };
    };
    const started = await other(['storage-restore', 'site_x', '-b', 'sb_1', '-m', 'full', '--yes', '--no-wait']);
    // The restore id is stdout's contract: missing, stdout stays empty and the exit code says so.
    expect(started.code).toBe(1);
    expect(started.stdout).toBe('');
    expect(started.stderr).toContain(
      'warning: Storage restore of site site_x started, but the service’s answer named no restore id, so it cannot be followed here',
    );
    const waited = await other(['storage-restore', 'site_x', '-b', 'sb_1', '-m', 'full', '--yes', '--wait']);
    expect(waited.code).toBe(8);
    expect(waited.stdout).toBe('');
    expect(server.sent('get_storage_restore_status')).toHaveLength(0);
  });
});
