// The checks of the control API's inputs (control-api.ts), made whole before anything changes
// (docs/emulator.md "Security"): each answers what an input sets, or throws ControlError (400,
// 404) with the sentence to answer; none of them changes the emulator.
import { ALL_SCOPES, type Scope } from '../api/registry-terms.js';
import { SITE_OUTCOMES, type Plan, type SiteOutcome, type TokenRecord } from './state.js';

export class ControlError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export const bad = (message: string): never => {
  throw new ControlError(400, message);
};

/** The longest span the clock jumps or a token expiry reaches: 100 years. */
export const MAX_SPAN_MS = 100 * 365.25 * 24 * 3600 * 1000;
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

/** The fields a token input sets, checked; nothing is changed here. `now`: emulated ms. */
export function tokenChanges(input: TokenInput, now: number): Partial<TokenRecord> {
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
    out.expiresAt = now + seconds * 1000;
  } else if (input.expiresAt !== undefined) {
    out.expiresAt = input.expiresAt === null ? null : toMs(input.expiresAt, 'expiresAt');
  }
  if (input.revoked !== undefined) {
    if (typeof input.revoked !== 'boolean') bad('revoked must be true or false.');
    out.revoked = input.revoked;
  }
  return out;
}

/** The fields a workspace input sets, checked; nothing is changed here. */
export function workspaceChanges(input: WorkspaceInput): WorkspaceInput {
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

export function slowSecondsOf(value: unknown): number {
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3600))
    bad('slowSeconds must be a whole number from 1 to 3600.');
  return value as number;
}

/** Which outcome each of n new sites gets: the ones asked for spread evenly, success elsewhere. */
export function outcomePlan(n: number, asked: Partial<Record<SiteOutcome, number>>): SiteOutcome[] {
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
export function nameOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 200)
    bad(`${what} must be text of 1 to 200 characters.`);
  return value as string;
}
