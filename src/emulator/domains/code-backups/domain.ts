// Code backups: list_code_backups (page numbers) and restore_code_backup. A code backup is
// taken after each agent run that changed the site's files (the chat engine's run-end hook),
// and seeded sites start with the one of their first build. Restoring one reverts the files,
// deletes the site's whole chat history and discards its queue (chat/site-code.ts); it takes
// no backup first and does not publish. The service's three 409s are answered verbatim.
// Control (under /_emulator/):
//   POST sites/:siteId/code-saving {"seconds"}   the site's latest changes are "being saved" that long
//   GET  sites/:siteId/code-backups              the backups with their file lists
//   POST code-backups {"restoreMs"}              how long a code restore keeps the site busy
import { onRunEnd } from '../chat/hooks.js';
import { activeRun, codeSnapshot, restoreSiteCode, snapshotOf, stopRun, type CodeSnapshot } from '../chat/site-code.js';
import type { JobRecord, SiteChat } from '../chat/slice.js';
import { assertCodeHostingAllows } from '../code-hosting/domain.js';
import { EmulatorRefusal } from '../../refusal.js';
import { defineDomain, type ControlRoute } from '../../types.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

export interface CodeBackupRecord extends CodeSnapshot {
  codeBackupId: string;
  siteId: string;
  jobId: string | null;
  label: string;
  createdAt: number;
}

interface CodeBackupsSlice {
  backups: Record<string, CodeBackupRecord[]>;
  /** siteId → emulated ms until which a code restore is still going on. */
  restoringUntil: Record<string, number>;
  /** siteId → emulated ms until which the site's latest changes are being saved (control API). */
  savingUntil: Record<string, number>;
  restoreMs: number;
}

export const CODE_BACKUPS_DOMAIN = 'codeBackups';
export const PAGE_SIZE = 20;
/** How long the service waits for a save before refusing (about 30 seconds, says the service). */
export const SAVE_WAIT_MS = 30_000;
export const GENERATING_MESSAGE = 'AI is currently generating. Stop it before restoring this code backup!';
export const ALREADY_RESTORING_MESSAGE = 'Another code backup is already being restored for this site!';
export const STILL_SAVING_MESSAGE = 'Your latest changes are still being saved. Try restoring again in a moment!';

const slice = (emu: EmulatorHost) => emu.slice<CodeBackupsSlice>(CODE_BACKUPS_DOMAIN);
const backupsOf = (emu: EmulatorHost, siteId: string) => (slice(emu).backups[siteId] ??= []);
const same = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
const labelFor = (prompt: string) => (prompt.length > 80 ? `${prompt.slice(0, 79)}…` : prompt);

/** Restoring cancels a run; the run's end must not be taken for a new version. */
const restoring = new WeakSet<EmulatorHost>();

function recordAfterRun(emu: EmulatorHost, job: JobRecord, chat: SiteChat): void {
  // Before this slice exists (the chat seeds its history first, also on reset), backfill covers it.
  if (restoring.has(emu) || !emu.site(job.siteId) || !emu.state.domains[CODE_BACKUPS_DOMAIN]) return;
  const list = backupsOf(emu, job.siteId);
  const snap = snapshotOf(chat);
  if (Object.keys(snap.files).length === 0 || (list.length && same(list[list.length - 1].files, snap.files))) return;
  list.push({
    ...snap,
    codeBackupId: emu.newId('cbk'),
    siteId: job.siteId,
    jobId: job.jobId,
    label: labelFor(job.prompt),
    createdAt: job.final?.at ?? emu.clock.now(),
  });
}

/** Sites whose runs ended before the hook was listening (seeded history, a loaded state) get one now. */
function backfill(emu: EmulatorHost, siteId: string): void {
  const list = backupsOf(emu, siteId);
  if (list.length) return;
  const snap = codeSnapshot(emu, siteId);
  if (Object.keys(snap.files).length === 0) return;
  const site = emu.site(siteId)!;
  list.push({
    ...snap,
    codeBackupId: emu.newId('cbk'),
    siteId,
    jobId: null,
    label: labelFor(site.prompt),
    createdAt: site.createdAt,
  });
}

function view(emu: EmulatorHost, b: CodeBackupRecord) {
  return {
    codeBackupId: b.codeBackupId,
    label: b.label,
    jobId: b.jobId,
    files: Object.keys(b.files).length,
    createdAt: emu.iso(b.createdAt),
  };
}

function listCodeBackups(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  backfill(call.emu, site._id);
  const page = call.args.page ?? 1;
  const all = [...backupsOf(call.emu, site._id)].reverse();
  const totalPages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((b) => view(call.emu, b));
  return {
    data: { items, page, pageSize: PAGE_SIZE, totalPages, hasMore: page < totalPages },
    count: all.length,
    message: `${items.length} of ${all.length} code backups.`,
  };
}

function restoreCodeBackup(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  assertCodeHostingAllows(emu, site);
  backfill(emu, site._id);
  const id = call.args.codeBackupId as string;
  const backup = backupsOf(emu, site._id).find((b) => b.codeBackupId === id);
  if (!backup)
    call.refuse(404, `No code backup has the id "${id}" on this site; list_code_backups lists them.`, {
      reason: 'not-found',
      codeBackupId: id,
    });
  const s = slice(emu);
  const now = call.now();
  // Nothing changes in any of the 409 cases.
  if ((s.restoringUntil[site._id] ?? 0) > now)
    call.refuse(409, ALREADY_RESTORING_MESSAGE, { reason: 'code-restore-running' });
  const run = activeRun(emu, site._id);
  if (run && call.args.cancelActiveJob !== true)
    call.refuse(409, GENERATING_MESSAGE, { reason: 'agent-generating', jobId: run.jobId });
  // The service waits about 30 s for a save to finish; the emulator answers at once either way.
  if ((s.savingUntil[site._id] ?? 0) - now > SAVE_WAIT_MS)
    call.refuse(409, STILL_SAVING_MESSAGE, { reason: 'still-saving' });
  restoring.add(emu);
  try {
    if (run) stopRun(emu, run);
    const effects = restoreSiteCode(emu, site._id, backup!);
    s.restoringUntil[site._id] = now + s.restoreMs;
    return {
      data: {
        restored: true,
        codeBackupId: backup!.codeBackupId,
        cancelledJobId: run?.jobId ?? null,
        ...effects,
        backupTaken: false,
        published: false,
      },
      message:
        'The code backup was restored: the chat history was deleted and queued messages were discarded. Nothing was published.',
    };
  } finally {
    restoring.delete(emu);
  }
}

const control: ControlRoute[] = [
  {
    verb: 'POST',
    path: 'sites/:siteId/code-saving',
    run: ({ params, body, emu }) => {
      const site = emu.siteOr404(params.siteId);
      if (!(typeof body.seconds === 'number' && body.seconds >= 0))
        throw new EmulatorRefusal(400, '`seconds` must be a number of 0 or more.');
      slice(emu).savingUntil[site._id] = emu.clock.now() + body.seconds * 1000;
      return { siteId: site._id, savingUntil: emu.iso(slice(emu).savingUntil[site._id]) };
    },
  },
  {
    verb: 'GET',
    path: 'sites/:siteId/code-backups',
    run: ({ params, emu }) => {
      const site = emu.siteOr404(params.siteId);
      backfill(emu, site._id);
      return backupsOf(emu, site._id).map((b) => ({ ...view(emu, b), fileList: Object.keys(b.files).sort() }));
    },
  },
  {
    verb: 'POST',
    path: 'code-backups',
    run: ({ body, emu }) => {
      const ms = body.restoreMs;
      if (!(typeof ms === 'number' && Number.isInteger(ms) && ms >= 0))
        throw new EmulatorRefusal(400, '`restoreMs` must be a whole number of 0 or more.');
      slice(emu).restoreMs = ms;
      return { restoreMs: ms };
    },
  },
];

export const codeBackupsDomain = defineDomain<CodeBackupsSlice>({
  name: CODE_BACKUPS_DOMAIN,
  init: (): CodeBackupsSlice => ({ backups: {}, restoringUntil: {}, savingUntil: {}, restoreMs: 5_000 }),
  seed(emu) {
    for (const site of emu.state.core.sites) backfill(emu, site._id);
  },
  attach(emu) {
    onRunEnd(emu, CODE_BACKUPS_DOMAIN, recordAfterRun);
  },
  handlers: { list_code_backups: listCodeBackups, restore_code_backup: restoreCodeBackup },
  control,
});
