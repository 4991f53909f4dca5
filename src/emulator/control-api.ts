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
    const now = emu.clock.now();
    const record: TokenRecord = {
      _id: emu.newId('tok'),
      name: input.name ?? `token-${emu.state.counters.tok ?? 0}`,
      token: input.token ?? `${TOKEN_PREFIX}${randomBytes(16).toString('hex')}`,
      userId: input.userId ?? DEMO_USER_ID,
      scopes: [...ALL_SCOPES],
      workspaces: null,
      expiresAt: null,
      revoked: false,
      createdAt: now,
    };
    if (!record.token.startsWith(TOKEN_PREFIX)) bad(`A token begins with ${TOKEN_PREFIX}.`);
    if (emu.state.core.tokens.some((t) => t.token === record.token)) bad('A token with that secret exists already.');
    if (!emu.user(record.userId)) throw new ControlError(404, `No user has the id "${record.userId}".`);
    this.applyToken(record, input);
    emu.state.core.tokens.push(record);
    emu.tokensChanged();
    return record;
  }

  updateToken(ref: string, input: TokenInput): TokenRecord {
    const record = this.findToken(ref);
    if (input.token !== undefined || input.userId !== undefined)
      bad('The secret and the user of a token cannot change.');
    this.applyToken(record, input);
    return record;
  }

  private applyToken(record: TokenRecord, input: TokenInput): void {
    if (input.name !== undefined) record.name = String(input.name);
    if (input.scopes !== undefined) {
      if (!Array.isArray(input.scopes) || input.scopes.some((s) => !ALL_SCOPES.includes(s))) {
        bad(`scopes must be a list of: ${ALL_SCOPES.join(', ')}.`);
      }
      record.scopes = [...new Set(input.scopes)];
    }
    if (input.workspaces !== undefined) {
      if (
        input.workspaces !== null &&
        (!Array.isArray(input.workspaces) || input.workspaces.some((w) => typeof w !== 'string'))
      ) {
        bad('workspaces must be a list of workspace ids, or null for every workspace.');
      }
      record.workspaces = input.workspaces === null ? null : [...input.workspaces];
    }
    if (input.expiresInSeconds !== undefined) {
      if (typeof input.expiresInSeconds !== 'number') bad('expiresInSeconds must be a number.');
      record.expiresAt = this.emu.clock.now() + input.expiresInSeconds * 1000;
    } else if (input.expiresAt !== undefined) {
      record.expiresAt = input.expiresAt === null ? null : toMs(input.expiresAt, 'expiresAt');
    }
    if (input.revoked !== undefined) record.revoked = Boolean(input.revoked);
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
    const id = input._id ?? emu.newId('ws');
    if (emu.workspace(id)) bad(`A workspace with the id ${id} exists already.`);
    const owner = input.ownerId ?? DEMO_USER_ID;
    if (!emu.user(owner)) throw new ControlError(404, `No user has the id "${owner}".`);
    const ws: WorkspaceRecord = {
      _id: id,
      name: input.name ?? id,
      plan: 'paid',
      siteLimit: 25,
      credits: 1000,
      creditsSpent: 0,
      spendingLimit: null,
      members: [{ userId: owner, role: 'owner', permissions: [...ROLE_PERMISSIONS.owner] }],
      createdAt: emu.clock.now(),
    };
    emu.state.core.workspaces.push(ws);
    return this.updateWorkspace(id, input);
  }

  /** Credits, plan, site limit, spending cap, name. */
  updateWorkspace(id: string, input: WorkspaceInput): WorkspaceRecord {
    const ws = this.findWorkspace(id);
    const count = (v: unknown, what: string, allowNull = false) => {
      if (allowNull && v === null) return null;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) bad(`${what} must be a number of 0 or more.`);
      return v as number;
    };
    if (input.name !== undefined) ws.name = String(input.name);
    if (input.plan !== undefined) {
      if (input.plan !== 'free' && input.plan !== 'paid') bad('plan must be free or paid.');
      ws.plan = input.plan;
    }
    if (input.siteLimit !== undefined) ws.siteLimit = Math.floor(count(input.siteLimit, 'siteLimit')!);
    if (input.creditsSpent !== undefined) ws.creditsSpent = count(input.creditsSpent, 'creditsSpent')!;
    if (input.spendingLimit !== undefined) ws.spendingLimit = count(input.spendingLimit, 'spendingLimit', true);
    if (input.credits !== undefined) {
      const credits = count(input.credits, 'credits')!;
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
    if (!this.emu.user(input.userId)) throw new ControlError(404, `No user has the id "${input.userId}".`);
    ws.members = ws.members.filter((m) => m.userId !== input.userId);
    if (input.remove) return ws;
    const role = input.role ?? 'editor';
    if (!(role in ROLE_PERMISSIONS)) bad(`role must be one of: ${Object.keys(ROLE_PERMISSIONS).join(', ')}.`);
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
    if (input.speed !== undefined) {
      if (typeof input.speed !== 'number' || !(input.speed > 0) || input.speed > 1_000_000)
        bad('speed must be a number above 0 (at most 1000000).');
      this.emu.clock.setSpeed(input.speed);
    }
    if (input.advanceMs !== undefined) {
      if (typeof input.advanceMs !== 'number' || !(input.advanceMs >= 0))
        bad('advanceMs must be a number of 0 or more.');
      this.emu.clock.advance(input.advanceMs);
    }
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
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) bad(`${what} must be an ISO-8601 time, a time in ms, or null.`);
  return ms;
}
