// The emulator's whole state: one plain, JSON-serializable object (saved and loaded with
// --state). `core` holds what every domain reads (users, workspaces, sites, tokens);
// `domains[name]` is the slice owned by the domain module of that name.
import type { Permission, Scope } from '../api/registry-terms.js';

export const STATE_FORMAT = 'sitebuilder-emulator-state';
export const STATE_VERSION = 1;

/** API access plus the two permissions the service names. Owners hold every one. */
export type RolePermission = 'apiAccess' | Permission;
export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

export const ROLE_PERMISSIONS: Record<Role, RolePermission[]> = {
  owner: ['apiAccess', 'deleteProjects', 'manageDomains'],
  admin: ['apiAccess', 'deleteProjects', 'manageDomains'],
  editor: ['apiAccess'],
  // A viewer's role lacks API access: its tokens are refused with 403 in that workspace.
  viewer: [],
};

export interface UserRecord {
  _id: string;
  name: string;
  email: string;
}

export interface MemberRecord {
  userId: string;
  role: Role;
  /** Starts as ROLE_PERMISSIONS[role]; the control API may change it. Owners always hold all. */
  permissions: RolePermission[];
}

export type Plan = 'free' | 'paid';

export interface WorkspaceRecord {
  _id: string;
  name: string;
  plan: Plan;
  /** Sites the plan allows; create_site past it → 403 site-limit-reached; sites past it are locked. */
  siteLimit: number;
  /** AI credit balance; 0 → 402 on work that spends credits. */
  credits: number;
  /** Credits spent in the current period, and the plan's cap on them (null: no cap). */
  creditsSpent: number;
  spendingLimit: number | null;
  members: MemberRecord[];
  createdAt: number;
}

export interface SiteRecord {
  _id: string;
  workspaceId: string;
  name: string;
  /** The brief it was created from. */
  prompt: string;
  importSource: { SourceUrl: string } | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  /**
   * How its publishes and agent runs end, set by the control API for fleets (docs/emulator.md
   * "Control API"): success (the default), failure, question, plan or slow.
   */
  outcome?: SiteOutcome;
  /** For a slow site: emulated seconds a publish takes, and an agent run stalls. */
  slowSeconds?: number;
}

export const SITE_OUTCOMES = ['success', 'failure', 'question', 'plan', 'slow'] as const;
export type SiteOutcome = (typeof SITE_OUTCOMES)[number];
/** A slow site's publish takes this long (emulated), and its agent runs stall this long. */
export const DEFAULT_SLOW_SECONDS = 600;

export interface TokenRecord {
  _id: string;
  name: string;
  /** The secret sent as Bearer; begins with TOKEN_PREFIX. */
  token: string;
  userId: string;
  scopes: Scope[];
  /** null: every workspace of the user; otherwise only these. */
  workspaces: string[] | null;
  /** Emulated ms; null: never expires. */
  expiresAt: number | null;
  revoked: boolean;
  createdAt: number;
}

export interface CreditActivityRecord {
  _id: string;
  workspaceId: string;
  at: number;
  /** Negative for spending, positive for top-ups. */
  amount: number;
  balance: number;
  note: string;
  siteId: string | null;
}

export interface CoreState {
  users: UserRecord[];
  workspaces: WorkspaceRecord[];
  sites: SiteRecord[];
  tokens: TokenRecord[];
  creditActivity: CreditActivityRecord[];
}

export interface EmulatorState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  /** Emulated time when saved; a loaded state resumes from it. */
  savedAt: number;
  /** Per-prefix counters behind newId(): ids are deterministic for a given history. */
  counters: Record<string, number>;
  core: CoreState;
  domains: Record<string, unknown>;
}

/** A fixed service-specific prefix, as real tokens have. */
export const TOKEN_PREFIX = 'sbt_';

export function emptyState(now: number): EmulatorState {
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    savedAt: now,
    counters: {},
    core: { users: [], workspaces: [], sites: [], tokens: [], creditActivity: [] },
    domains: {},
  };
}

export function parseState(text: string, source: string): EmulatorState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source} is not JSON: ${(err as Error).message}`);
  }
  const s = parsed as Partial<EmulatorState> | null;
  if (!s || s.format !== STATE_FORMAT || s.version !== STATE_VERSION || !s.core) {
    throw new Error(`${source} is not an emulator state file (format ${STATE_FORMAT} version ${STATE_VERSION}).`);
  }
  s.counters ??= {};
  s.domains ??= {};
  return s as EmulatorState;
}
