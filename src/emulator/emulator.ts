// The emulator's engine, independent of HTTP: state, clock, budgets, idempotency, faults,
// request log, the domains and their handlers. server.ts puts it on node:http; tests and the
// demo can also drive it in-process through startEmulator(). The domains see it only as the
// EmulatorHost of host.ts; the pipeline, the server and the control API use the whole class.
import { randomBytes } from 'node:crypto';
import type { MethodName } from '../api/method-index.js';
import type { Permission } from '../api/registry-terms.js';
import { RateBudgets } from './budget.js';
import { refuse } from './refusal.js';
import { EmulatorClock } from './clock.js';
import { DOMAINS } from './domains/index.js';
import { FaultRegistry } from './faults.js';
import { IdempotencyStore } from './idempotency.js';
import { RequestLog } from './request-log.js';
import { seedCore } from './seed.js';
import { createShapes, type Shapes, type ShapesName } from './shapes/index.js';
import {
  emptyState,
  type EmulatorState,
  type RolePermission,
  type SiteRecord,
  type TokenRecord,
  type UserRecord,
  type WorkspaceRecord,
} from './state.js';
import type { Domain } from './types.js';
import type { EmulatorHost, Handler, JobService } from './host.js';

export { SERVICE_VERSION } from './envelope.js';

export interface EmulatorOptions {
  clock?: EmulatorClock;
  /** Seed the demo data (default true); false starts empty. */
  seed?: boolean;
  /** A loaded state (from --state); wins over seed. */
  state?: EmulatorState;
  domains?: Domain[];
  /** The shapes of the answers (default: the emulator's own choices); see src/emulator/shapes/. */
  shapes?: ShapesName;
}

export class Emulator implements EmulatorHost {
  readonly clock: EmulatorClock;
  readonly budgets: RateBudgets;
  readonly idempotency: IdempotencyStore;
  readonly faults = new FaultRegistry();
  readonly log = new RequestLog();
  readonly domains: Domain[];
  /** How answers are shaped where the service's reference says "not shown". */
  readonly shapes: Shapes;
  readonly handlers = new Map<string, Handler>();
  /** Starts agent runs; the chat domain replaces the placeholder in its attach(). */
  jobs: JobService;
  state: EmulatorState;
  private requestSeq = 0;
  private readonly requestPrefix = randomBytes(4).toString('hex');
  private tokenIndex = new Map<string, TokenRecord>();
  private indexedTokens?: TokenRecord[];

  constructor(options: EmulatorOptions = {}) {
    this.clock = options.clock ?? new EmulatorClock();
    this.budgets = new RateBudgets(this.clock);
    this.idempotency = new IdempotencyStore(this.clock);
    this.shapes = createShapes(options.shapes);
    this.domains = options.domains ?? DOMAINS;
    for (const d of this.domains) {
      for (const [method, handler] of Object.entries(d.handlers ?? {})) {
        if (this.handlers.has(method)) throw new Error(`Two domains handle ${method}.`);
        this.handlers.set(method, handler as Handler);
      }
    }
    this.jobs = {
      start: () => {
        throw new Error('No domain provides jobs (emu.jobs).');
      },
    };
    const seed = options.seed ?? true;
    this.state = options.state ?? this.freshState(seed);
    // Slices missing from a loaded file (a domain added since) start empty.
    this.initMissingSlices(options.state ? false : seed);
    for (const d of this.domains) d.attach?.(this);
  }

  // ---- state -------------------------------------------------------------------------

  private freshState(seed: boolean): EmulatorState {
    this.state = emptyState(this.clock.now());
    if (seed) {
      seedCore(this);
      this.shapes.seedCore(this);
    }
    return this.state;
  }

  private initMissingSlices(seed: boolean): void {
    this.tokensChanged();
    for (const d of this.domains) {
      if (d.name in this.state.domains) continue;
      const slice = d.init(this);
      this.state.domains[d.name] = slice;
      if (seed) d.seed?.(this, slice);
    }
  }

  /** Back to a fresh state (seeded unless told otherwise); clears budgets, keys, faults and the log. */
  reset(options: { seed?: boolean } = {}): void {
    const seed = options.seed ?? true;
    this.freshState(seed);
    this.initMissingSlices(seed);
    this.budgets.reset();
    this.idempotency.reset();
    this.faults.clear();
    this.log.clear();
    for (const d of this.domains) d.attach?.(this);
  }

  /** The state as saved by --state. */
  snapshot(): EmulatorState {
    this.state.savedAt = this.clock.now();
    return this.state;
  }

  slice<S>(domain: string): S {
    return this.state.domains[domain] as S;
  }

  /** The next number of a prefix's counter (newId formats it). */
  newNumber(prefix: string): number {
    const n = (this.state.counters[prefix] ?? 0) + 1;
    this.state.counters[prefix] = n;
    return n;
  }

  /** Deterministic ids: prefix_000001, prefix_000002, … (another form in the alternate shapes). */
  newId(prefix: string): string {
    return this.shapes.formatId(prefix, this.newNumber(prefix));
  }

  newRequestId(): string {
    return this.shapes.requestId() ?? `req_${this.requestPrefix}${(++this.requestSeq).toString(36).padStart(6, '0')}`;
  }

  iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  // ---- core lookups ------------------------------------------------------------------

  user(id: string): UserRecord | undefined {
    return this.state.core.users.find((u) => u._id === id);
  }

  workspace(id: string): WorkspaceRecord | undefined {
    return this.state.core.workspaces.find((w) => w._id === id);
  }

  site(id: string): SiteRecord | undefined {
    return this.state.core.sites.find((s) => s._id === id);
  }

  /** The site, or a 404 refusal: for control routes (service methods use the call's requireSite). */
  siteOr404(id: string): SiteRecord {
    return this.site(id) ?? refuse(404, `No site ${id}.`);
  }

  sitesOf(workspaceId: string): SiteRecord[] {
    return this.state.core.sites.filter((s) => s.workspaceId === workspaceId);
  }

  tokenBySecret(secret: string): TokenRecord | undefined {
    const tokens = this.state.core.tokens;
    if (this.indexedTokens !== tokens || this.tokenIndex.size !== tokens.length) {
      this.tokenIndex = new Map(tokens.map((t) => [t.token, t]));
      this.indexedTokens = tokens;
    }
    return this.tokenIndex.get(secret);
  }

  /** Call after adding, removing or re-keying token records. */
  tokensChanged(): void {
    this.indexedTokens = undefined;
  }

  memberRole(workspace: WorkspaceRecord, userId: string) {
    return workspace.members.find((m) => m.userId === userId);
  }

  hasPermission(workspace: WorkspaceRecord, userId: string, permission: RolePermission | Permission): boolean {
    const m = this.memberRole(workspace, userId);
    if (!m) return false;
    return m.role === 'owner' || m.permissions.includes(permission);
  }

  /** Within the token's narrowing, the user is a member, and the role holds API access. */
  reaches(token: TokenRecord, workspace: WorkspaceRecord): boolean {
    if (token.workspaces && !token.workspaces.includes(workspace._id)) return false;
    return this.hasPermission(workspace, token.userId, 'apiAccess');
  }

  reachableWorkspaces(token: TokenRecord): WorkspaceRecord[] {
    return this.state.core.workspaces.filter((w) => this.reaches(token, w));
  }

  /** Sites past the plan's site limit (the newest ones) are locked. */
  isLocked(site: SiteRecord): boolean {
    const ws = this.workspace(site.workspaceId);
    if (!ws) return false;
    const index = this.sitesOf(ws._id).indexOf(site);
    return index >= ws.siteLimit;
  }

  /**
   * Adds a site and tells every domain (onSiteCreated). Seeding passes notify false: the
   * domains' init({ seed: true }) runs after and sets the seeded sites up itself.
   */
  addSite(
    site: Omit<SiteRecord, '_id' | 'createdAt' | 'updatedAt'> & { _id?: string; createdAt?: number },
    options: { notify?: boolean } = {},
  ): SiteRecord {
    const now = this.clock.now();
    const createdAt = site.createdAt ?? now;
    const record: SiteRecord = { ...site, _id: site._id ?? this.newId('site'), createdAt, updatedAt: createdAt };
    this.state.core.sites.push(record);
    if (options.notify !== false) for (const d of this.domains) d.onSiteCreated?.(this, record);
    return record;
  }

  /** Where an unexpected failure of a handler is reported (the command prints it; tests may assert). */
  errorListener?: (err: unknown, requestId: string) => void;
  readonly errors: Array<{ requestId: string; message: string }> = [];

  onError(err: unknown, requestId: string): void {
    this.errors.push({ requestId, message: (err as Error)?.stack ?? String(err) });
    if (this.errors.length > 100) this.errors.shift();
    this.errorListener?.(err, requestId);
  }

  /** A site as methods answer it: the core fields plus what the domains add (siteFields). */
  siteView(site: SiteRecord, known: { locked?: boolean } = {}): Record<string, unknown> {
    const view: Record<string, unknown> = {
      _id: site._id,
      name: site.name,
      workspaceId: site.workspaceId,
      createdAt: this.iso(site.createdAt),
      updatedAt: this.iso(site.updatedAt),
      locked: known.locked ?? this.isLocked(site),
    };
    if (site.importSource) view.importSource = site.importSource;
    for (const d of this.domains) if (d.siteFields) Object.assign(view, d.siteFields(this, site));
    return view;
  }

  handlerFor(method: MethodName | string): Handler | undefined {
    return this.handlers.get(method);
  }
}
