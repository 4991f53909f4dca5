// The interfaces a domain of the emulator builds on: a Domain module owns a slice of the
// state, handles some methods of the registry, and may add control routes and raw HTTP routes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MethodInfo, MethodName } from '../api/method-index.js';
import type { Permission } from '../api/registry-terms.js';
import type { Emulator } from './emulator.js';
import type { SiteRecord, TokenRecord, UserRecord, WorkspaceRecord } from './state.js';

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

/** The arguments a handler receives have passed the registry's validation. */
export type Args = Record<string, any>;

export interface CallContext<A extends Args = Args> {
  method: MethodName;
  spec: MethodInfo;
  args: A;
  token: TokenRecord;
  /** The user who created the token; the person behind the call. */
  user: UserRecord;
  requestId: string;
  idempotencyKey?: string;
  emu: Emulator;
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

/** A control route under /_emulator/; `path` is matched against the part after /_emulator/. */
export interface ControlRoute {
  verb: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Segments, `:name` captures: 'sites/:siteId/code-hosting'. */
  path: string;
  run(req: ControlRequest): unknown | Promise<unknown>;
}

export interface ControlRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, any>;
  emu: Emulator;
}

/** Starts agent runs. The placeholder answers a run that simply succeeds; the chat domain replaces it. */
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

export interface Domain<S = unknown> {
  /** Key of its slice: emu.state.domains[name]. */
  name: string;
  /** A fresh, empty slice. */
  init(emu: Emulator): S;
  /** Demo data for the seeded sites, once the slice is in place (core data is seeded already). */
  seed?(emu: Emulator, slice: S): void;
  handlers?: Partial<Record<MethodName, Handler>>;
  /** After every slice exists (replace emu.jobs here, for example); runs again after a reset. */
  attach?(emu: Emulator): void;
  /** After create_site (or the control API) added a site. */
  onSiteCreated?(emu: Emulator, site: SiteRecord): void;
  /** Extra fields of the site record as methods answer it (a published address, for example). */
  siteFields?(emu: Emulator, site: SiteRecord): Record<string, unknown>;
  control?: ControlRoute[];
  /** Raw HTTP outside /v1/ and /_emulator/ (a published site). Return true when answered. */
  http?(req: IncomingMessage, res: ServerResponse, url: URL, emu: Emulator): boolean | Promise<boolean>;
}

export const defineDomain = <S>(domain: Domain<S>): Domain<S> => domain;
