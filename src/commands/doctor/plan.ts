// doctor's counted calls, in the order they are made: only reads, each chosen for the fields
// not shown in the reference that its answer holds (docs/real-service.md "doctor" counts them).
// The first three also find what the next ones read: a workspace, a site of it, a run of that site.
import type { MethodArgs } from '../../api/method-args.js';
import { catalogueFields } from '../../service/catalogue.js';
import { findList } from '../../service/page.js';
import { idsOf, runInHistory } from '../../service/doctor-probe.js';
import { SITE, WORKSPACE } from '../../service/sites.js';

export type ReadMethod =
  | 'list_workspaces'
  | 'list_sites'
  | 'list_messages'
  | 'get_job'
  | 'list_storage_backups'
  | 'get_site_email_settings'
  | 'get_publish_status';

/** What the calls look at, and where each came from (in words, for the report). */
export interface Targets {
  workspace?: string;
  workspaceFrom?: string;
  site?: string;
  siteFrom?: string;
  run?: string;
  runFrom?: string;
  /** Why there is none, once a call that could have named one was answered. */
  noWorkspace?: string;
  noSite?: string;
  noRun?: string;
}

/** One call doctor made, or meant to make, as its report shows it. */
export interface CallRecord {
  /** A method, or `GET /v1/…`. */
  method: string;
  counted: boolean;
  args: Record<string, unknown> | null;
  /** Why doctor reads it. */
  why: string;
  /** read; refused (a 4xx); failed (a 5xx, no answer, or one that could not be read); skipped (it could not be made); not made (the limit). */
  outcome: 'read' | 'refused' | 'failed' | 'skipped' | 'not made';
  status: number | null;
  requestId: string | null;
  /** Records in its data, for a listing. */
  records: number | null;
  /** The refusal or failure, or why it was not made. */
  error: string | null;
  exitCode: number | null;
  /** The answer's shape: keys and types, never a value (service/skeleton.ts). */
  shape: unknown;
}

/** What this machine saw itself (runs.json): the newest run of a site it started or followed. */
export interface Here {
  runOf(site: string): string | undefined;
}

interface StepOf<M extends ReadMethod> {
  method: M;
  why: string;
  /** Its arguments (typed from the registry: api/method-args.ts), or why it cannot be made. */
  args(t: Targets): { send: MethodArgs<M> } | { skip: string };
  /** What its answer names for the next calls. */
  learn?(data: unknown, t: Targets, here: Here): void;
}

/** One call of the plan: its method and the arguments that method takes. */
export type Step = { [M in ReadMethod]: StepOf<M> }[ReadMethod];

/** How many fields of these resources the reference does not show: "3 fields not shown". */
function notShown(...resources: string[]): string {
  const n = catalogueFields().filter((f) => resources.includes(f.resource) && !f.stated).length;
  return `${n} field${n === 1 ? '' : 's'} not shown`;
}

const records = (data: unknown): unknown[] => {
  const list = findList(data);
  return Array.isArray(list) ? list : [];
};

const noSite = (t: Targets) => ({
  skip:
    t.noSite ??
    (t.workspace === undefined
      ? (t.noWorkspace ?? 'no workspace was found to look for a site in')
      : `no site was named and list_sites of ${t.workspace} was not read`),
});
const onSite = (t: Targets) => (t.site === undefined ? noSite(t) : { send: { projectId: t.site } });

export const PLAN: readonly Step[] = [
  {
    method: 'list_workspaces',
    why: `${notShown('workspace record')}; the workspace to look in`,
    args: () => ({ send: {} }),
    learn(data, t) {
      if (t.workspace !== undefined) return;
      const [first] = idsOf(records(data), WORKSPACE.fields.id);
      if (first === undefined) t.noWorkspace = 'list_workspaces named no workspace sitebuilder can read';
      else Object.assign(t, { workspace: first, workspaceFrom: 'the first workspace listed' });
    },
  },
  {
    method: 'list_sites',
    why: `${notShown('site record')}; the site to look at`,
    args: (t) =>
      t.workspace === undefined
        ? { skip: t.noWorkspace ?? 'list_workspaces could not be read; name a workspace with --workspace' }
        : { send: { workspaceId: t.workspace } },
    learn(data, t, here) {
      if (t.site !== undefined) return;
      // A site this machine followed a run of has a history and a run to read; else the first.
      const ids = idsOf(records(data), SITE.fields.id);
      const followed = ids.find((id) => here.runOf(id) !== undefined);
      if (followed !== undefined)
        Object.assign(t, { site: followed, siteFrom: `a site of ${t.workspace} this machine followed a run of` });
      else if (ids.length === 0) t.noSite = `workspace ${t.workspace} has no site sitebuilder can read; name one`;
      else Object.assign(t, { site: ids[0], siteFrom: `the first site of ${t.workspace} listed` });
    },
  },
  {
    method: 'list_messages',
    why: `${notShown('message record')}, and paging; the run to read`,
    args: onSite,
    learn(data, t) {
      if (t.run !== undefined) return;
      const run = runInHistory(records(data));
      if (run !== undefined) Object.assign(t, { run, runFrom: 'the first record of the history naming one' });
      else t.noRun = `no record of ${t.site}'s history names a run sitebuilder can read`;
    },
  },
  {
    method: 'get_job',
    why: `${notShown('job event data')} in the events of a run: the most of any call`,
    args: (t) =>
      t.site === undefined
        ? noSite(t)
        : t.run === undefined
          ? {
              skip: `${t.noRun ?? `${t.site}'s history could not be read`}, and this machine followed none of its runs; name one with --job`,
            }
          : { send: { projectId: t.site, jobId: t.run, cursor: 0 } },
  },
  {
    method: 'list_storage_backups',
    why: `${notShown('storage backup')}`,
    args: onSite,
  },
  {
    method: 'get_site_email_settings',
    why: `${notShown('email domain', 'DNS record')} of email domains and DNS records`,
    args: onSite,
  },
  {
    method: 'get_publish_status',
    why: `${notShown('publish record')}, the live address among them`,
    args: onSite,
  },
];
