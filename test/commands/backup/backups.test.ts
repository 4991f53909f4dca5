// backup, code-backup and storage-backup commands against a real emulator on port 0. Every
// destructive command, without a terminal and without --yes, exits 5 and leaves the
// emulator's state as it was (checked through the control API and the request log).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { type MethodAnswer, type MethodServer, startMethodServer } from '../../helpers/method-server.js';
import { run } from '../../helpers/run.js';
import { ScriptedPrompter } from '../../helpers/scripted-prompter.js';
import { fieldName, itemsIn, rx, SHAPES, spelled } from '../../helpers/shapes.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(() => {
  emu.control.reset();
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
const api = async (method: string, args: Record<string, unknown>) =>
  (
    (await (
      await fetch(`${emu.baseUrl}/v1/${method}`, {
        method: 'POST',
        body: JSON.stringify(args),
        headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
      })
    ).json()) as any
  ).data;
const calls = (method: string) => emu.control.log({ method });
const cli = (argv: string[], opts: Parameters<typeof run>[1] = {}) => run(argv, { env, clock, ...opts });
/** Everything a restore could change on the site, read through the control API. */
const siteState = async () => ({
  content: await control('GET', `sites/${SITE}/content`),
  chat: await control('GET', `sites/${SITE}/chat`),
  files: await control('GET', `sites/${SITE}/files`),
  storage: await control('GET', `sites/${SITE}/storage-files`),
  storageBackups: (await control('GET', `sites/${SITE}/storage-backups`)).map((b: any) => b.backupId),
  messages: itemsIn('list_messages', await api('list_messages', { projectId: SITE })),
});

describe('without a terminal and without --yes, nothing changes (exit 5)', () => {
  it('backup restore, code-backup restore, storage-backup clear, storage-restore', async () => {
    const backupId = itemsIn('list_backups', await api('list_backups', { projectId: SITE }))[1]._id;
    const codeBackupId = itemsIn('list_code_backups', await api('list_code_backups', { projectId: SITE }))[0]
      .codeBackupId;
    const storageBackupId = (await control('GET', `sites/${SITE}/storage-backups`))[1].backupId;
    const before = await siteState();
    const commands = [
      ['backup', 'restore', SITE, backupId],
      ['code-backup', 'restore', SITE, codeBackupId],
      ['code-backup', 'restore', SITE, codeBackupId, '--cancel-active-job'],
      ['storage-backup', 'clear', SITE],
      ['storage-backup', 'clear', SITE, '--backup', storageBackupId],
      ['storage-restore', SITE, '--backup', storageBackupId, '--mode', 'full'],
    ];
    for (const argv of commands) {
      const res = await cli(argv);
      expect(res.code, argv.join(' ')).toBe(5);
      expect(res.stderr).toMatch(/--yes|--confirm/);
      expect(res.stderr).toMatch(/Nothing was (changed|restored)/);
    }
    for (const method of ['restore_backup', 'restore_code_backup', 'clear_storage_backups'])
      expect(calls(method)).toHaveLength(0);
    expect(calls('restore_storage_backup').every((c) => (c.args as any).confirm === undefined)).toBe(true);
    emu.control.clearLog();
    expect(await siteState()).toEqual(before);
  });

  it('the same with --json: the error is one JSON document on stderr, stdout stays empty', async () => {
    const backupId = itemsIn('list_backups', await api('list_backups', { projectId: SITE }))[1]._id;
    const res = await cli(['backup', 'restore', SITE, backupId, '--json']);
    expect(res.code).toBe(5);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr).error).toMatchObject({ type: 'ConfirmationNeededError', exitCode: 5 });
  });
});

describe('backup', () => {
  it('lists backups: tab-separated when piped, JSON with --json', async () => {
    const piped = await cli(['backup', 'list', SITE]);
    expect(piped.code).toBe(0);
    const rows = piped.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual([
      expect.any(String),
      expect.stringMatching(/^BK-/),
      spelled('list_backups', 'items.type', 'daily'),
      'Daily backup',
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    ]);
    const json = JSON.parse((await cli(['backup', 'list', SITE, '--json'])).stdout);
    // The records as the service sends them.
    expect(json[1]).toMatchObject({
      [fieldName('list_backups', 'items.label')]: 'Before the menu redesign',
      type: spelled('list_backups', 'items.type', 'manual'),
    });
  });

  it('restores with --yes and says how to undo and that nothing was published', async () => {
    const [, older] = itemsIn('list_backups', await api('list_backups', { projectId: SITE }));
    const res = await cli(['backup', 'restore', SITE, older.BackupId, '--yes']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Restored backup ${older.BackupId} on site ${SITE}.\n`);
    expect(res.stderr).toMatch(
      /Pre-restore Backup was taken first: undo with `sitebuilder backup restore site_bakery [0-9a-f]+`/,
    );
    expect(res.stderr).toContain('sitebuilder publish site_bakery');
    expect((await control('GET', `sites/${SITE}/content`)).pages).toHaveLength(2);
  });

  it('--json names the undo backup under its own key, whatever the answer calls it', async () => {
    const [, older] = itemsIn('list_backups', await api('list_backups', { projectId: SITE }));
    const res = await cli(['backup', 'restore', SITE, older._id, '--yes', '--json']);
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(Object.keys(doc).slice(0, 3)).toEqual(['siteId', 'backupId', 'preRestoreBackupId']);
    expect(doc).toMatchObject({ siteId: SITE, backupId: older._id, restored: true });
    const pre = doc[fieldName('restore_backup', 'preRestoreBackup')];
    expect(doc.preRestoreBackupId).toBe(pre._id);
    expect(doc.preRestoreBackupId).not.toBe(older._id);
  });

  it('on a terminal: picks the backup, names what is replaced and left alone, and asks', async () => {
    const prompter = new ScriptedPrompter([{ select: 'Before the menu redesign' }, { confirm: true }]);
    const res = await cli(['backup', 'restore', SITE], { tty: true, columns: 200, prompter });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(
      /Restore site backup [0-9a-f]+ “Before the menu redesign” from \d{4}-\d\d-\d\d \d\d:\d\d UTC on site site_bakery:/,
    );
    expect(res.stderr).toContain('every page, component and setting of the site is replaced');
    expect(res.stderr).toContain('stored files, database rows, environment variables, source files');
    expect(prompter.asked).toEqual(['Which backup?', 'Go ahead?']);
  });

  it('an unknown backup is a clear error', async () => {
    const res = await cli(['backup', 'restore', SITE, 'nope', '--yes']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      rx()`^error: Site site_bakery has no backup nope; \`sitebuilder backup list site_bakery\` shows them\. \(request ${'req'}`,
    );
    // On a terminal too: the listing only names the backup's date; the service says it is unknown.
    const prompter = new ScriptedPrompter([{ confirm: true }]);
    const asked = await cli(['backup', 'restore', SITE, 'nope'], { tty: true, prompter });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('Restore site backup nope on site site_bakery:');
    expect(asked.stderr).toMatch(rx()`error: Site site_bakery has no backup nope; [^]*\(request ${'req'}\)`);
  });
});

describe('code-backup', () => {
  it('lists, then restores with --yes, saying the chat history is deleted for everyone', async () => {
    const list = await cli(['code-backup', 'list', SITE, '--json']);
    const [{ codeBackupId }] = JSON.parse(list.stdout);
    expect(itemsIn('list_messages', await api('list_messages', { projectId: SITE })).length).toBeGreaterThan(0);
    const res = await cli(['code-backup', 'restore', SITE, codeBackupId, '--yes']);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('The chat history was deleted and queued messages were discarded.');
    expect(itemsIn('list_messages', await api('list_messages', { projectId: SITE }))).toHaveLength(0);
  });

  it('the confirmation says plainly what is lost', async () => {
    const [{ codeBackupId }] = itemsIn('list_code_backups', await api('list_code_backups', { projectId: SITE }));
    const prompter = new ScriptedPrompter([{ confirm: false }]);
    const before = await siteState();
    const res = await cli(['code-backup', 'restore', SITE, codeBackupId], { tty: true, columns: 200, prompter });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(
      'the whole chat history of this site is deleted, for everyone in the project; this cannot be undone',
    );
    expect(res.stderr).toContain('messages waiting in the queue are discarded unsent');
    expect(res.stderr).toContain('no backup is taken first');
    expect(await siteState()).toEqual(before);
  });

  it('while the agent generates: exit 1 naming --cancel-active-job; with it the run stops and the restore happens', async () => {
    const [{ codeBackupId }] = itemsIn('list_code_backups', await api('list_code_backups', { projectId: SITE }));
    await api('send_message', { projectId: SITE, prompt: 'Add a gallery #long' });
    const refused = await cli(['code-backup', 'restore', SITE, codeBackupId, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /AI is currently generating\. Stop it before restoring this code backup! Nothing was changed; pass --cancel-active-job/,
    );
    const ok = await cli(['code-backup', 'restore', SITE, codeBackupId, '--yes', '--cancel-active-job', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      siteId: SITE,
      codeBackupId,
      restored: true,
      // The service's fields, as it sends them.
      [fieldName('restore_code_backup', 'cancelledJobId')]: expect.stringMatching(rx()`^${'job'}$`),
    });
    // Without --json, the run it stopped is named (once the first restore is over).
    clock.advance(10 * 60_000);
    await api('send_message', { projectId: SITE, prompt: 'Add a blog #long' });
    const said = await cli(['code-backup', 'restore', SITE, codeBackupId, '--yes', '--cancel-active-job']);
    expect(said.code, said.stderr).toBe(0);
    expect(said.stderr).toMatch(rx()`The run ${'job'} was stopped first\.`);
  });
});

describe('storage-backup', () => {
  it('lists, browses and reads (bytes as they are when piped, --output to a file, binary refused on a terminal)', async () => {
    const list = JSON.parse((await cli(['storage-backup', 'list', SITE, '--json'])).stdout);
    const label = fieldName('list_storage_backups', 'items.label');
    const weekly = list.find((b: any) => b[label] === 'Weekly backup').backupId;
    const browse = await cli(['storage-backup', 'browse', SITE, weekly, 'images/']);
    expect(browse.stdout.split('\n')[0]).toBe('images/hero.jpg\tfile\t4000\tpublic');
    const csv = await cli(['storage-backup', 'read', SITE, weekly, 'orders/2026-10.csv']);
    expect(csv.stdout).toMatch(/^orders\/2026-10\.csv v1\n/);
    expect(csv.stdout).toHaveLength(350);
    const tty = await cli(['storage-backup', 'read', SITE, weekly, 'images/logo.png'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/binary file .*--output FILE/);
    const out = join(mkdtempSync(join(tmpdir(), 'sb-read-')), 'logo.png');
    const saved = await cli(['storage-backup', 'read', SITE, weekly, 'images/logo.png', '-o', out]);
    expect(saved.code).toBe(0);
    expect(readFileSync(out)).toHaveLength(1200);
  });

  it('creates a backup and --wait follows it until it is archived', async () => {
    const res = await cli(['storage-backup', 'create', SITE, '--wait', '--json']);
    expect(res.code).toBe(0);
    // The record as the service sends it.
    expect(JSON.parse(res.stdout)).toMatchObject({
      status: spelled('create_storage_backup', 'status', 'ready'),
      restorable: true,
      [fieldName('create_storage_backup', 'files')]: 7,
    });
  });

  it('clears the named backups with --yes', async () => {
    const [first] = await control('GET', `sites/${SITE}/storage-backups`);
    const res = await cli(['storage-backup', 'clear', SITE, '--backup', first.backupId, '--yes', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ siteId: SITE, deleted: 1, backupIds: [first.backupId] });
    expect((await control('GET', `sites/${SITE}/storage-backups`)).map((b: any) => b.backupId)).not.toContain(
      first.backupId,
    );
  });

  it('on a terminal, clearing all asks, naming how many', async () => {
    const prompter = new ScriptedPrompter([{ confirm: true }]);
    const res = await cli(['storage-backup', 'clear', SITE], { tty: true, prompter });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('Delete all 4 storage backups of site site_bakery:');
    expect(res.stdout).toContain('Deleted 4 storage backups of site site_bakery.');
  });

  it('--json always has deleted and backupIds, as counted and named in either shape', async () => {
    const [first, second] = await control('GET', `sites/${SITE}/storage-backups`);
    const ids = [first.backupId, second.backupId];
    const res = await cli(['storage-backup', 'clear', SITE, '--backup', ids[0], '--backup', ids[1], '--yes', '--json']);
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(Object.keys(doc).slice(0, 3)).toEqual(['siteId', 'deleted', 'backupIds']);
    expect(doc).toMatchObject({ siteId: SITE, deleted: 2 });
    expect([...doc.backupIds].sort()).toEqual([...ids].sort());
  });

  it('without a prompt, clearing all exits 5 with a sentence that reads well', async () => {
    const res = await cli(['storage-backup', 'clear', SITE]);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('Delete every storage backup of site site_bakery needs confirmation');
    expect(await control('GET', `sites/${SITE}/storage-backups`)).toHaveLength(4);
  });
});

// Answers of shapes the emulator does not give: what the service leaves open, read or said. No
// emulator: the same answers in either project, so run in the default one only.
describe.skipIf(SHAPES === 'alternate')('against answers of other shapes', () => {
  let server: MethodServer;
  beforeAll(async () => {
    server = await startMethodServer();
  });
  beforeEach(() => server.reset());
  afterAll(() => server.close());
  const other = (argv: string[]) =>
    run(argv, { env: { SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full }, clock });

  it('backup restore: the undo backup under other names, and a sentence when the answer names none', async () => {
    const undo = (data: Record<string, unknown>) => {
      server.answers.restore_backup = data;
      return other(['backup', 'restore', 'site_x', 'bk_1', '--yes']);
    };
    for (const data of [
      { preRestoreBackupId: 'bk_9' },
      { createdBackup: { BackupId: 'bk_9' } },
      { backupId: 'bk_1', undoBackup: { _id: 'bk_9' } },
    ]) {
      const res = await undo(data);
      expect(res.code).toBe(0);
      expect(res.stderr).toContain('undo with `sitebuilder backup restore site_x bk_9`');
    }
    // The restored backup's own id is never offered as the undo.
    const none = await undo({ restored: true, backupId: 'bk_1', preRestoreBackup: { _id: 'bk_1' } });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('Restored backup bk_1 on site site_x.\n');
    expect(none.stderr).toContain(
      'A Pre-restore Backup was taken first, but the service’s answer did not name it: `sitebuilder backup list site_x` shows it (type automatic)',
    );
    server.answers.restore_backup = { restored: true };
    const json = JSON.parse((await other(['backup', 'restore', 'site_x', 'bk_1', '--yes', '--json'])).stdout);
    expect(json).toEqual({ siteId: 'site_x', backupId: 'bk_1', preRestoreBackupId: null, restored: true });
  });

  it('storage-backup create: a record without a status is not called ready, and what is missing is said', async () => {
    server.answers.create_storage_backup = { backupId: 'sb_9', createdAt: Date.UTC(2026, 10, 20, 12) };
    const res = await other(['storage-backup', 'create', 'site_x']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('backup\tsb_9\nstatus\tnot given\ncreated\t2026-11-20T12:00:00.000Z\nsize\t\n');
    expect(res.stderr).toBe('Not in the service’s answer, so left empty: size.\n');
  });

  it('storage-backup clear: counts and ids read under other names, else what was asked, else said', async () => {
    const clear = async (data: MethodAnswer, argv: string[]) => {
      server.answers.clear_storage_backups = data;
      const res = await other(['storage-backup', 'clear', 'site_x', ...argv, '--yes', '--json']);
      expect(res.code).toBe(0);
      return JSON.parse(res.stdout);
    };
    const named = ['--backup', 'sb_1', '--backup', 'sb_2'];
    expect(await clear({ removedCount: 2, deletedIds: ['sb_1', 'sb_2'] }, named)).toMatchObject({
      deleted: 2,
      backupIds: ['sb_1', 'sb_2'],
    });
    expect(await clear({ deleted: [{ backupId: 'sb_1' }] }, named)).toMatchObject({ deleted: 1, backupIds: ['sb_1'] });
    // An answer that says nothing: what was asked.
    expect(await clear({ ok: true }, named)).toEqual({
      siteId: 'site_x',
      deleted: 2,
      backupIds: ['sb_1', 'sb_2'],
      ok: true,
    });
    // A count that disagrees with what was asked: the ids are not made up.
    expect(await clear({ deletedCount: 1 }, named)).toMatchObject({ deleted: 1, backupIds: null });
    // All, with --yes (nothing listed first) and an answer that says nothing: null, and said.
    expect(await clear({}, [])).toMatchObject({ deleted: null, backupIds: null });
    const plain = await other(['storage-backup', 'clear', 'site_x', '--yes']);
    expect(plain.stdout).toBe('Deleted every storage backup of site site_x.\n');
    expect(plain.stderr).toBe('The service’s answer did not say how many.\n');
    expect(server.sent('clear_storage_backups').at(-1)).toEqual({ projectId: 'site_x' });
  });
});
