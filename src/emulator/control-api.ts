// The control API's operations, callable in-process (tests, the demo) and over HTTP under
// /_emulator/ (control.ts). Not part of the service: no token, no budget, no envelope rules
// beyond using the same envelope for familiarity.
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES, type Scope } from '../api/registry-terms.js';
import type { Emulator } from './emulator.js';
import { checkFaultSpec, type Fault, type FaultSpec } from './faults.js';
import type { LogEntry } from './request-log.js';
import { DEMO_USER_ID } from './seed.js';
import {
  DEFAULT_SLOW_SECONDS,
  ROLE_PERMISSIONS,
  SITE_OUTCOMES,
  type SiteOutcome,
  TOKEN_PREFIX,
  type Plan,
  type Role,
  type RolePermission,
  type SiteRecord,
  type TokenRecord,
  type WorkspaceRecord,
} from './state.js';

export class ControlError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string): never => {
  throw new ControlError(400, message);
};

/** The longest span the clock jumps or a token expiry reaches: 100 years. */
const MAX_SPAN_MS = 100 * 365.25 * 24 * 3600 * 1000;
/** The latest time a Date can hold. */
const MAX_TIME_MS = 8.64e15;

export interface TokenInput {
  name?: string;
  scopes?: Scope[];
  workspaces?: string[] | null;
  /** ISO-8601, emulated ms, or null for never. */
  expiresAt?: string | number | null;
  expiresInSeconds?: number;
  revoked?: boolean;
  userId?: string;
  /** The secret; generated (with the service prefix) when absent. */
  token?: string;
}

export interface WorkspaceInput {
  name?: string;
  plan?: Plan;
  siteLimit?: number;
  credits?: number;
  creditsSpent?: number;
  spendingLimit?: number | null;
}

export interface ClockView {
  now: string;
  nowMs: number;
  speed: number;
}

export class Control {
  constructor(private readonly emu: Emulator) {}

  reset(options: { seed?: boolean } = {}): void {
    this.emu.reset(options);
  }

  // ---- tokens -------------------------------------------------------------------------

  tokens(): TokenRecord[] {
    return this.emu.state.core.tokens;
  }

  findToken(ref: string): TokenRecord {
    const t = this.emu.state.core.tokens.find((x) => x._id === ref || x.name === ref || x.token === ref);
    if (!t) throw new ControlError(404, `No token has the id, name or secret "${ref}".`);
    return t;
  }

  createToken(input: TokenInput = {}): TokenRecord {
    const emu = this.emu;
    // Everything is checked before anything changes (the id counter included).
    const changes = this.tokenChanges(input);
    if (input.token !== undefined && !(typeof input.token === 'string' && /^[\x21-\x7e]{1,256}$/.test(input.token)))
      bad('token must be 1 to 256 visible characters.');
    const secret = input.token ?? `${TOKEN_PREFIX}${randomBytes(16).toString('hex')}`;
    if (!secret.startsWith(TOKEN_PREFIX)) bad(`A token begins with ${TOKEN_PREFIX}.`);
    if (emu.state.core.tokens.some((t) => t.token === secret)) bad('A token with that secret exists already.');
    const userId = input.userId ?? DEMO_USER_ID;
    if (typeof userId !== 'string' || !emu.user(userId))
      throw new ControlError(404, `No user has the id ${JSON.stringify(userId)}.`);
    const record: TokenRecord = {
      _id: emu.newId('tok'),
      name: `token-${emu.state.counters.tok ?? 0}`,
      token: secret,
      userId,
      scopes: [...ALL_SCOPES],
      workspaces: null,
      expiresAt: null,
      revoked: false,
      createdAt: emu.clock.now(),
      ...changes,
    };
    emu.state.core.tokens.push(record);
    emu.tokensChanged();
    return record;
  }

  updateToken(ref: string, input: TokenInput): TokenRecord {
    const record = this.findToken(ref);
    if (input.token !== undefined || input.userId !== undefined)
      bad('The secret and the user of a token cannot change.');
    return Object.assign(record, this.tokenChanges(input));
  }

  /** The fields a token input sets, checked; nothing is changed here. */
  private tokenChanges(input: TokenInput): Partial<TokenRecord> {
    const out: Partial<TokenRecord> = {};
    if (input.name !== undefined) out.name = nameOf(input.name, 'name');
    if (input.scopes !== undefined) {
      if (!Array.isArray(input.scopes) || input.scopes.some((s) => !ALL_SCOPES.includes(s))) {
        bad(`scopes must be a list of: ${ALL_SCOPES.join(', ')}.`);
      }
      out.scopes = [...new Set(input.scopes)];
    }
    if (input.workspaces !== undefined) {
      if (
        input.workspaces !== null &&
        (!Array.isArray(input.workspaces) || input.workspaces.some((w) => typeof w !== 'string'))
      ) {
        bad('workspaces must be a list of workspace ids, or null for every workspace.');
      }
      out.workspaces = input.workspaces === null ? null : [...input.workspaces];
    }
    if (input.expiresInSeconds !== undefined) {
      const seconds = input.expiresInSeconds;
      if (typeof seconds !== 'number' || !(Math.abs(seconds) <= MAX_SPAN_MS / 1000))
        bad('expiresInSeconds must be a number of seconds within 100 years.');
      out.expiresAt = this.emu.clock.now() + seconds * 1000;
    } else if (input.expiresAt !== undefined) {
      out.expiresAt = input.expiresAt === null ? null : toMs(input.expiresAt, 'expiresAt');
    }
    if (input.revoked !== undefined) {
      if (typeof input.revoked !== 'boolean') bad('revoked must be true or false.');
      out.revoked = input.revoked;
    }
    return out;
  }

  // ---- workspaces ---------------------------------------------------------------------

  workspaces(): WorkspaceRecord[] {
    return this.emu.state.core.workspaces;
  }

  findWorkspace(id: string): WorkspaceRecord {
    const ws = this.emu.workspace(id);
    if (!ws) throw new ControlError(404, `No workspace has the id "${id}".`);
    return ws;
  }

  createWorkspace(input: WorkspaceInput & { _id?: string; ownerId?: string } = {}): WorkspaceRecord {
    const emu = this.emu;
    if (input._id !== undefined && !(typeof input._id === 'string' && /^[\w.-]{1,100}$/.test(input._id)))
      bad('_id must be 1 to 100 letters, digits, _, . or -.');
    if (input._id !== undefined && emu.workspace(input._id))
      bad(`A workspace with the id ${input._id} exists already.`);
    const owner = input.ownerId ?? DEMO_USER_ID;
    if (typeof owner !== 'string' || !emu.user(owner))
      throw new ControlError(404, `No user has the id ${JSON.stringify(owner)}.`);
    // Checked before the workspace exists: a refusal leaves nothing behind.
    const changes = this.workspaceChanges(input);
    const id = input._id ?? emu.newId('ws');
    const ws: WorkspaceRecord = {
      _id: id,
      name: id,
      plan: 'paid',
      siteLimit: 25,
      credits: 1000,
      creditsSpent: 0,
      spendingLimit: null,
      members: [{ userId: owner, role: 'owner', permissions: [...ROLE_PERMISSIONS.owner] }],
      createdAt: emu.clock.now(),
    };
    emu.state.core.workspaces.push(ws);
    return this.applyWorkspace(ws, changes);
  }

  /** Credits, plan, site limit, spending cap, name. */
  updateWorkspace(id: string, input: WorkspaceInput): WorkspaceRecord {
    const ws = this.findWorkspace(id);
    return this.applyWorkspace(ws, this.workspaceChanges(input));
  }

  /** The fields a workspace input sets, checked; nothing is changed here. */
  private workspaceChanges(input: WorkspaceInput): WorkspaceInput {
    const count = (v: unknown, what: string, allowNull = false) => {
      if (allowNull && v === null) return null;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e15)
        bad(`${what} must be a number from 0 to 10^15.`);
      return v as number;
    };
    const out: WorkspaceInput = {};
    if (input.name !== undefined) out.name = nameOf(input.name, 'name');
    if (input.plan !== undefined) {
      if (input.plan !== 'free' && input.plan !== 'paid') bad('plan must be free or paid.');
      out.plan = input.plan;
    }
    if (input.siteLimit !== undefined) out.siteLimit = Math.floor(count(input.siteLimit, 'siteLimit')!);
    if (input.creditsSpent !== undefined) out.creditsSpent = count(input.creditsSpent, 'creditsSpent')!;
    if (input.spendingLimit !== undefined) out.spendingLimit = count(input.spendingLimit, 'spendingLimit', true);
    if (input.credits !== undefined) out.credits = count(input.credits, 'credits')!;
    return out;
  }

  private applyWorkspace(ws: WorkspaceRecord, changes: WorkspaceInput): WorkspaceRecord {
    const { credits, ...rest } = changes;
    Object.assign(ws, rest);
    if (credits !== undefined) {
      this.emu.state.core.creditActivity.push({
        _id: this.emu.newId('cred'),
        workspaceId: ws._id,
        at: this.emu.clock.now(),
        amount: credits - ws.credits,
        balance: credits,
        note: 'Balance set through the emulator control API',
        siteId: null,
      });
      ws.credits = credits;
    }
    return ws;
  }

  setMember(
    workspaceId: string,
    input: { userId: string; role?: Role; permissions?: RolePermission[]; remove?: boolean },
  ): WorkspaceRecord {
    const ws = this.findWorkspace(workspaceId);
    if (typeof input.userId !== 'string' || !this.emu.user(input.userId))
      throw new ControlError(404, `No user has the id ${JSON.stringify(input.userId)}.`);
    if (input.remove !== undefined && typeof input.remove !== 'boolean') bad('remove must be true or false.');
    const role = input.role ?? 'editor';
    if (!Object.hasOwn(ROLE_PERMISSIONS, role))
      bad(`role must be one of: ${Object.keys(ROLE_PERMISSIONS).join(', ')}.`);
    const known = ROLE_PERMISSIONS.owner;
    if (
      input.permissions !== undefined &&
      (!Array.isArray(input.permissions) || input.permissions.some((p) => !known.includes(p)))
    )
      bad(`permissions must be a list of: ${known.join(', ')}.`);
    ws.members = ws.members.filter((m) => m.userId !== input.userId);
    if (input.remove) return ws;
    ws.members.push({
      userId: input.userId,
      role,
      permissions: input.permissions ? [...input.permissions] : [...ROLE_PERMISSIONS[role]],
    });
    return ws;
  }

  /**
   * Adds sites directly (no build run), e.g. thousands to exercise paging, or a fleet whose
   * publishes and runs end in every outcome: `outcomes` names how many sites end otherwise than
   * in success ({ failure: 2, question: 1, plan: 1, slow: 1 }), spread over the new sites.
   */
  addSites(
    workspaceId: string,
    input: {
      count?: number;
      name?: string;
      createdBy?: string;
      outcomes?: Partial<Record<SiteOutcome, number>>;
      slowSeconds?: number;
    } = {},
  ): SiteRecord[] {
    const ws = this.findWorkspace(workspaceId);
    if (input.name !== undefined) nameOf(input.name, 'name');
    const n = input.count ?? 1;
    if (!Number.isInteger(n) || n < 1 || n > 100_000) bad('count must be a whole number from 1 to 100000.');
    const plan = outcomePlan(n, input.outcomes ?? {});
    const slow = input.slowSeconds === undefined ? undefined : slowSecondsOf(input.slowSeconds);
    const out: SiteRecord[] = [];
    for (let i = 0; i < n; i++) {
      const name = n === 1 && input.name ? input.name : `${input.name ?? 'Generated site'} ${i + 1}`;
      const site = this.emu.addSite({
        workspaceId: ws._id,
        name,
        prompt: `${name}.`,
        importSource: null,
        createdBy: input.createdBy ?? DEMO_USER_ID,
      });
      this.applyOutcome(site, plan[i], slow);
      out.push(site);
    }
    return out;
  }

  /** How the site's publishes and agent runs end from now on (success: as usual). */
  setOutcome(siteId: string, input: { outcome?: unknown; slowSeconds?: unknown }): SiteRecord {
    const site = this.emu.siteOr404(siteId);
    if (!SITE_OUTCOMES.includes(input.outcome as SiteOutcome))
      bad(`outcome must be one of: ${SITE_OUTCOMES.join(', ')}.`);
    this.applyOutcome(
      site,
      input.outcome as SiteOutcome,
      input.slowSeconds === undefined ? undefined : slowSecondsOf(input.slowSeconds),
    );
    return site;
  }

  private applyOutcome(site: SiteRecord, outcome: SiteOutcome, slowSeconds: number | undefined): void {
    if (outcome === 'success') {
      delete site.outcome;
      delete site.slowSeconds;
      return;
    }
    site.outcome = outcome;
    if (outcome === 'slow') site.slowSeconds = slowSeconds ?? DEFAULT_SLOW_SECONDS;
    else delete site.slowSeconds;
  }

  // ---- clock, faults, log -------------------------------------------------------------

  clock(): ClockView {
    const nowMs = this.emu.clock.now();
    return { now: this.emu.iso(nowMs), nowMs, speed: this.emu.clock.speed };
  }

  setClock(input: { speed?: number; advanceMs?: number }): ClockView {
    // Both checked before either is applied: a refusal leaves the clock as it was.
    if (input.speed !== undefined) {
      if (typeof input.speed !== 'number' || !(input.speed > 0) || input.speed > 1_000_000)
        bad('speed must be a number above 0 (at most 1000000).');
    }
    if (input.advanceMs !== undefined) {
      if (typeof input.advanceMs !== 'number' || !(input.advanceMs >= 0 && input.advanceMs <= MAX_SPAN_MS))
        bad(`advanceMs must be a number of ms from 0 to ${MAX_SPAN_MS} (100 years).`);
    }
    if (input.speed !== undefined) this.emu.clock.setSpeed(input.speed);
    if (input.advanceMs !== undefined) this.emu.clock.advance(input.advanceMs);
    return this.clock();
  }

  /** The calls every token may make in a minute (the service's 240; lower for tests of the budget). */
  budget(): { callsPerMinute: number } {
    return { callsPerMinute: this.emu.budgets.limit };
  }

  setBudget(input: { callsPerMinute?: unknown }): { callsPerMinute: number } {
    const n = input.callsPerMinute;
    if (!(typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100_000))
      bad('callsPerMinute must be a whole number from 1 to 100000.');
    this.emu.budgets.limit = n as number;
    return this.budget();
  }

  addFault(spec: FaultSpec): Fault {
    const problem = checkFaultSpec(spec);
    if (problem) bad(problem);
    return this.emu.faults.add(spec);
  }

  faults(): Fault[] {
    return this.emu.faults.list();
  }

  clearFaults(): void {
    this.emu.faults.clear();
  }

  log(filter: { method?: string; since?: number } = {}): LogEntry[] {
    return this.emu.log.list(filter);
  }

  clearLog(): void {
    this.emu.log.clear();
  }
}

function slowSecondsOf(value: unknown): number {
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3600))
    bad('slowSeconds must be a whole number from 1 to 3600.');
  return value as number;
}

/** Which outcome each of n new sites gets: the ones asked for spread evenly, success elsewhere. */
function outcomePlan(n: number, asked: Partial<Record<SiteOutcome, number>>): SiteOutcome[] {
  const plan: SiteOutcome[] = Array.from({ length: n }, () => 'success');
  const wanted: SiteOutcome[] = [];
  for (const [k, count] of Object.entries(asked)) {
    if (!SITE_OUTCOMES.includes(k as SiteOutcome))
      bad(`outcomes takes ${SITE_OUTCOMES.join(', ')}, not ${JSON.stringify(k)}.`);
    if (!(typeof count === 'number' && Number.isInteger(count) && count >= 0))
      bad(`outcomes.${k} must be a whole number of 0 or more.`);
    for (let i = 0; i < (count as number); i++) wanted.push(k as SiteOutcome);
  }
  if (wanted.length > n) bad(`outcomes name ${wanted.length} sites, more than the ${n} added.`);
  wanted.forEach((o, i) => {
    plan[Math.floor((i * n) / wanted.length)] = o;
  });
  return plan;
}

function toMs(value: string | number, what: string): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  // A time any Date can show: the answers write it as ISO-8601.
  if (!(Math.abs(ms) <= MAX_TIME_MS)) bad(`${what} must be an ISO-8601 time, a time in ms, or null.`);
  return ms;
}

/** A name given to the control API: text of 1 to 200 characters. */
function nameOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 200)
    bad(`${what} must be text of 1 to 200 characters.`);
  return value as string;
}
