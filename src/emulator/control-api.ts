// The control API's operations, callable in-process (tests, the demo) and over HTTP under
// /_emulator/ (control.ts). Not part of the service: no token, no budget, no envelope rules
// beyond using the same envelope for familiarity. Tokens and workspaces: control-accounts.ts.
import {
  createToken,
  createWorkspace,
  findToken,
  findWorkspace,
  setMember,
  updateToken,
  updateWorkspace,
} from './control-accounts.js';
import {
  bad,
  MAX_SPAN_MS,
  nameOf,
  outcomePlan,
  slowSecondsOf,
  type TokenInput,
  type WorkspaceInput,
} from './control-input.js';
import type { Emulator } from './emulator.js';
import { checkFaultSpec, type Fault, type FaultSpec } from './faults.js';
import type { LogEntry } from './request-log.js';
import { DEMO_USER_ID } from './seed.js';
import {
  DEFAULT_SLOW_SECONDS,
  SITE_OUTCOMES,
  type SiteOutcome,
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
    return findToken(this.emu, ref);
  }

  createToken(input: TokenInput = {}): TokenRecord {
    return createToken(this.emu, input);
  }

  updateToken(ref: string, input: TokenInput): TokenRecord {
    return updateToken(this.emu, ref, input);
  }

  // ---- workspaces ---------------------------------------------------------------------

  workspaces(): WorkspaceRecord[] {
    return this.emu.state.core.workspaces;
  }

  findWorkspace(id: string): WorkspaceRecord {
    return findWorkspace(this.emu, id);
  }

  createWorkspace(input: WorkspaceInput & { _id?: string; ownerId?: string } = {}): WorkspaceRecord {
    return createWorkspace(this.emu, input);
  }

  /** Credits, plan, site limit, spending cap, name. */
  updateWorkspace(id: string, input: WorkspaceInput): WorkspaceRecord {
    return updateWorkspace(this.emu, id, input);
  }

  setMember(
    workspaceId: string,
    input: { userId: string; role?: Role; permissions?: RolePermission[]; remove?: boolean },
  ): WorkspaceRecord {
    return setMember(this.emu, workspaceId, input);
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
