// Every command, against one hostile service: the command lines that need no state of their own,
// then the flows that need ids the service made (the queue, storage backups and restores, a
// refusal written by the service). Shared by the tests that plant something in every answer
// (test/commands/planted-output.test.ts, deep-answers.test.ts) and scan every output.
import { DEMO_TOKENS, type RunningEmulator } from '../../src/emulator/index.js';
import type { Choice, Prompter } from '../../src/io/prompter.js';

/** Takes the first choice, declines confirmations, types a short text: every prompt a command shows is passed. */
export class FirstChoicePrompter implements Prompter {
  canPrompt() {
    return true;
  }
  require() {}
  async input() {
    return 'A short answer';
  }
  async password() {
    return DEMO_TOKENS.full;
  }
  async confirm() {
    return false;
  }
  async select<T>(_m: string, choices: Choice<T>[]) {
    return choices[0].value;
  }
  async multiselect<T>(_m: string, choices: Choice<T>[]) {
    return choices.slice(0, 1).map((c) => c.value);
  }
}

/** Command lines that need no state of their own. */
export const LINES: string[][] = [
  ['workspace', 'list'],
  ['workspace', 'list', '--token', DEMO_TOKENS.readonly],
  ['site', 'list', '--workspace', 'ws_demo'],
  ['site', 'list', '--all'],
  ['site', 'view', 'site_bakery'],
  ['site', 'use', 'site_bakery'],
  ['site', 'create', '--workspace', 'ws_demo', '--prompt', 'A florist in Ghent with a shop'],
  ['site', 'create', '--workspace', 'ws_free', '--prompt', 'One site too many'],
  ['auth', 'status'],
  // --yes: this machine has followed no run of these sites yet, so what waits cannot be told.
  ['chat', 'site_bakery', 'Add a gallery page with six photos', '--yes'],
  ['chat', 'site_portfolio', '#ask', '--yes'],
  ['chat', 'site_portfolio', '--choose', '1'],
  ['chat', 'site_docs', '--plan', 'Move the FAQ to its own page', '--yes'],
  ['chat', 'site_docs', '--approve'],
  ['message', 'list', 'site_bakery'],
  ['job', 'cancel', 'site_bakery'],
  ['publish', 'site_bakery'],
  ['publish', 'site_portfolio', '--no-wait'],
  ['publish', 'status', 'site_bakery'],
  ['publish', 'logs', 'site_bakery'],
  ['backup', 'list', 'site_bakery'],
  ['backup', 'restore', 'site_bakery'],
  ['backup', 'restore', 'site_bakery', '65f000000000000000000001', '--yes'],
  ['code-backup', 'list', 'site_bakery'],
  ['code-backup', 'restore', 'site_bakery'],
  ['code-backup', 'restore', 'site_bakery', 'cbk_000001', '--yes'],
  ['storage-backup', 'list', 'site_bakery'],
  ['storage-restore', 'site_bakery'],
  ['email', 'domains', 'site_bakery'],
  ['email', 'restart', 'site_bakery', 'edom_bakery_news', '--yes'],
  ['api', 'list_sites', '-f', 'workspaceId=ws_demo'],
  ['api', 'list_sites', '-f', 'workspaceId=ws_demo', '--paginate'],
  ['api', 'list_workspaces', '--include'],
  ['api', 'get_job', '-f', 'projectId=site_bakery', '-f', 'jobId=job_999999'],
  ['openapi'],
  ['tools'],
  ['doctor'],
  ['doctor', 'site_bakery', '--job', 'job_000001'],
];

export interface EveryCommandRun {
  emu: RunningEmulator;
  /** The address commands are sent to (the hostile proxy). */
  baseUrl: string;
  /** A small text file to upload. */
  file: string;
  /** Runs one command line (mode and environment are the caller's). */
  go(argv: string[], env?: Record<string, string>): Promise<void>;
  /** A label that keeps each mode's uploads apart. */
  mode: string;
}

/** Everything: the lines above, then the flows that need ids the service made. */
export async function everyCommand({ emu, baseUrl, file, go, mode }: EveryCommandRun): Promise<void> {
  for (const argv of LINES) await go(argv);
  await go(['auth', 'login', '--with-token', '--base-url', baseUrl], { SITEBUILDER_TOKEN: '' });
  // The queue: a message sent while the agent is busy waits; then every queue verb, and a run cancelled.
  // --yes: this machine has followed no run of the site, so what waits cannot be told here.
  await go(['chat', 'site_bakery', 'Add a blog with three posts', '--no-follow', '--yes']);
  await go(['chat', 'site_bakery', 'Then a contact form', '--no-follow']);
  await go(['chat', 'site_bakery', 'And a map', '--no-follow']);
  // Ids the service made, when it queued the messages (a hostile one may have refused them).
  const [first = 'qi_none', second = 'qi_none'] = queue(emu, 'site_bakery');
  await go(['queue', 'list', 'site_bakery']);
  await go(['queue', 'edit', 'site_bakery', first, 'A contact form with a map']);
  await go(['queue', 'move', 'site_bakery', second, '--first']);
  await go(['queue', 'remove', 'site_bakery', second, '--yes']);
  await go(['job', 'watch', 'site_bakery', lastJob(emu, 'site_bakery')]);
  await go(['job', 'cancel', 'site_bakery', '--yes']);
  await go(['queue', 'resume', 'site_bakery']);
  // Storage: a text file uploaded, backed up, read back; the storage changed, then restored.
  await go(['upload', 'site_bakery', file, '--folder', 'notes']);
  await go(['storage-backup', 'create', 'site_bakery', '--wait']);
  const backup = newestStorageBackup(emu, 'site_bakery');
  await go(['storage-backup', 'browse', 'site_bakery', backup]);
  await go(['storage-backup', 'read', 'site_bakery', backup, 'notes/notes.txt']);
  await go(['upload', 'site_bakery', file, '--folder', `later-${mode}`]);
  await go(['storage-restore', 'plan', 'site_bakery', '--backup', backup, '--mode', 'full']);
  await go(['storage-restore', 'site_bakery', '--backup', backup, '--mode', 'full', '--yes', '--no-wait']);
  await go(['storage-restore', 'status', 'site_bakery', lastRestore(emu)]);
  await go(['storage-backup', 'clear', 'site_bakery', '--backup', backup, '--yes']);
  // A refusal whose message (and request id) the service wrote: planted like the rest.
  emu.control.addFault({ method: 'list_workspaces', status: 500, message: 'The database is on fire', times: 4 });
  await go(['workspace', 'list']);
  emu.control.clearFaults();
}

interface ChatSlice {
  sites: Record<string, { lastJobId?: string; queue: Array<{ queueItemId: string }> }>;
}

const chatSlice = (emu: RunningEmulator) => emu.state.domains.chat as ChatSlice;
const queue = (emu: RunningEmulator, site: string) => chatSlice(emu).sites[site].queue.map((q) => q.queueItemId);

function newestStorageBackup(emu: RunningEmulator, site: string): string {
  const all = (
    emu.state.domains.storageBackups as { backups: Record<string, Array<{ backupId: string; createdAt: number }>> }
  ).backups[site];
  return [...all].sort((a, b) => b.createdAt - a.createdAt)[0].backupId;
}

function lastRestore(emu: RunningEmulator): string {
  const restores = (emu.state.domains.storageBackups as { restores: Record<string, unknown> }).restores;
  return Object.keys(restores).at(-1) ?? 'srs_none';
}

function lastJob(emu: RunningEmulator, site: string): string {
  return chatSlice(emu).sites[site]?.lastJobId ?? 'job_000001';
}
