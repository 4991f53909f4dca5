// What a domain of the emulator may use of it: EmulatorHost (the clock, the state and its
// slices, ids, the core lookups of users, workspaces and sites, the agent's job service, the
// handlers of other domains) and the CallContext a handler receives. Domains and their helpers
// import this file and src/emulator/types.ts, never the Emulator class (emulator.ts), which
// implements EmulatorHost and wires the domains: so the import graph has no loop.
import type { AnyMethodArgs } from '../api/method-args.js';
import type { MethodInfo, MethodName } from '../api/method-index.js';
import type { Permission } from '../api/registry-terms.js';
import type { EmulatorClock } from './clock.js';
import type {
  EmulatorState,
  MemberRecord,
  RolePermission,
  SiteRecord,
  TokenRecord,
  UserRecord,
  WorkspaceRecord,
} from './state.js';

export interface EmulatorHost {
  readonly clock: EmulatorClock;
  /** Replaced by a reset or a loaded file: read it through the host each time, never keep it. */
  readonly state: EmulatorState;
  /** Starts agent runs; the chat domain replaces the placeholder in its attach(). */
  jobs: JobService;
  /** A domain's slice: state.domains[name]. */
  slice<S>(domain: string): S;
  /** Deterministic ids: prefix_000001, prefix_000002, … (another form in the alternate shapes). */
  newId(prefix: string): string;
  /** The next number of a prefix's counter, for ids of a form of their own (newId formats it). */
  newNumber(prefix: string): number;
  /** The id of a request that does not come through the method pipeline (a deploy hook's address). */
  newRequestId(): string;
  iso(ms: number): string;

  user(id: string): UserRecord | undefined;
  workspace(id: string): WorkspaceRecord | undefined;
  site(id: string): SiteRecord | undefined;
  /** The site, or a 404 refusal: for control routes (service methods use the call's requireSite). */
  siteOr404(id: string): SiteRecord;
  sitesOf(workspaceId: string): SiteRecord[];
  memberRole(workspace: WorkspaceRecord, userId: string): MemberRecord | undefined;
  hasPermission(workspace: WorkspaceRecord, userId: string, permission: RolePermission | Permission): boolean;
  reachableWorkspaces(token: TokenRecord): WorkspaceRecord[];
  /** Sites past the plan's site limit (the newest ones) are locked. */
  isLocked(site: SiteRecord): boolean;
  /** Adds a site and tells every domain (onSiteCreated) unless notify is false (seeding). */
  addSite(
    site: Omit<SiteRecord, '_id' | 'createdAt' | 'updatedAt'> & { _id?: string; createdAt?: number },
    options?: { notify?: boolean },
  ): SiteRecord;
  /** A site as methods answer it: the core fields plus what the domains add (siteFields). */
  siteView(site: SiteRecord, known?: { locked?: boolean }): Record<string, unknown>;
  /** Call after adding, removing or re-keying token records. */
  tokensChanged(): void;
  /** The handler of a method, whichever domain holds it (a deploy hook runs publish_site). */
  handlerFor(method: MethodName): Handler | undefined;
}

/** What a handler answers; the pipeline wraps it in the envelope. */
export interface HandlerResult {
  data?: unknown;
  /** Plain-English text; default "OK". */
  message?: string;
  /** The total, on methods that return one (offset and count listings). */
  count?: number;
  /** HTTP status of a success; default 200. */
  status?: number;
  /** Extra top-level envelope fields, when a method answers some beside data. */
  fields?: Record<string, unknown>;
}

/**
 * The arguments a handler receives: every argument of the registry (src/api/methods.ts) with
 * the type its schema checked before the handler runs, read from the schemas themselves
 * (api/method-args.ts). A handler reads the ones its method takes; those its method requires are
 * there, the others may be undefined. (An argument some methods require and others leave
 * optional is marked optional.)
 */
export type Args = AnyMethodArgs;

export interface CallContext {
  method: MethodName;
  spec: MethodInfo;
  args: Args;
  token: TokenRecord;
  /** The user who created the token; the person behind the call. */
  user: UserRecord;
  requestId: string;
  idempotencyKey?: string;
  emu: EmulatorHost;
  /** Emulated ms. */
  now(): number;
  /** 404 unknown id; 403 outside the token's narrowing, not a member, or a role without API access. */
  requireWorkspace(workspaceId: string): WorkspaceRecord;
  /** As requireWorkspace for the site's workspace; a write to a site locked past the plan's site limit → 403. */
  requireSite(projectId: string): SiteRecord;
  workspaceOf(site: SiteRecord): WorkspaceRecord;
  /** 403 unless the caller's role in the workspace holds the permission (owners hold all). */
  requirePermission(workspace: WorkspaceRecord, permission: Permission): void;
  /** 403 with data.reason 'paid-plan-required' on the Free plan. */
  requirePaidPlan(workspace: WorkspaceRecord, what: string): void;
  /** 402 when the balance is empty (nothing ran, nothing charged). */
  requireCredits(workspace: WorkspaceRecord): void;
  /** Spends credits (down to 0 at most) and records the activity. Returns what was charged. */
  chargeCredits(workspace: WorkspaceRecord, amount: number, note: string, site?: SiteRecord): number;
  /** Throws EmulatorRefusal(status, message, data). */
  refuse(status: number, message: string, data?: unknown): never;
}

export type Handler = (call: CallContext) => HandlerResult | Promise<HandlerResult>;

/** Starts agent runs: the chat domain provides it (until it attaches, starting a run throws). */
export interface JobService {
  start(input: JobStartInput): { jobId: string };
}

export interface JobStartInput {
  site: SiteRecord;
  workspace: WorkspaceRecord;
  user: UserRecord;
  prompt: string;
  mode: 'build' | 'plan';
  /** create_site's first build. */
  firstBuild: boolean;
}
