// The control API's operations, callable in-process (tests, the demo) and over HTTP under
// /_emulator/ (control.ts). Not part of the service: no token, no budget, no envelope rules
// beyond using the same envelope for familiarity.
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES } from '../api/registry-terms.js';
import {
  bad,
  ControlError,
  MAX_SPAN_MS,
  nameOf,
  outcomePlan,
  slowSecondsOf,
  type TokenInput,
  tokenChanges,
  type WorkspaceInput,
  workspaceChanges,
} from './control-input.js';
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
  type Role,
  type RolePermission,
  type SiteRecord,
  type TokenRecord,
  type WorkspaceRecord,
} from './state.js';

export { ControlError, type TokenInput, type WorkspaceInput } from './control-input.js';

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
    const changes = tokenChanges(input, this.emu.clock.now());
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
    return Object.assign(record, tokenChanges(input, this.emu.clock.now()));
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
    const changes = workspaceChanges(input);
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
    return this.applyWorkspace(ws, workspaceChanges(input));
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
