// The runs this CLI started or followed, per service address, profile and site, in runs.json
// beside config.json: a source for the latest run of a site that no reshaped history can mislead
// (docs/guide.md "Authentication and profiles"). Keyed by the address too, so that an emulator
// on another port, or another service, never meets the runs of this one. Small and bounded; read
// only when asked, written under the same lock and atomic replace as the configuration, so
// parallel chats never lose a run.
import { readPrivateFile, updatePrivateFile } from './private-dir.js';

export interface KnownRun {
  /** The run's job id; for a queued message (`queued`), the queue item's id. */
  jobId: string;
  /** When the CLI started or first followed the run, or queued the message (ms, from ctx.clock). */
  startedAt: number;
  mode?: 'build' | 'plan';
  /** A message this CLI queued: the run it starts later has an id nobody told us. */
  queued?: true;
  /**
   * This CLI followed the run to its end: how it ended, and the fingerprints of the history's
   * first page just after (service/messages.ts). The same page later means nothing happened since.
   */
  seen?: SeenEnd;
  /** Replies to this run refused by the service: the next one takes a new Idempotency-Key (commands/shared/conversation/reply-key.ts). */
  replyTries?: number;
}

export interface SeenEnd {
  outcome: string;
  /** When it was seen (ms, from ctx.clock): messages queued from here before it are in what was seen. */
  at: number;
  prints: string[];
}

/** Oldest dropped first: runs of a site, sites of a scope (by their latest run), scopes. */
export const RUNS_LIMITS = {
  runsPerSite: 20,
  sitesPerProfile: 200,
  /** An address and a profile (runsScope). */
  scopes: 20,
  /** Runs of a site that keep what was seen at their end (only the newest are ever compared). */
  seenPerSite: 3,
  printsPerRun: 1000,
} as const;

const FILE_NAME = 'runs.json';
const MAX_ID_LENGTH = 256;
/** Version 1 kept runs per profile only, whatever address it pointed at: left out, as forgotten. */
const VERSION = 2;

/**
 * The key runs are kept under: the service's address and the profile. Another address (an
 * emulator on another port, another service) starts with no memory of runs.
 */
export function runsScope(profile: string, baseUrl: string): string {
  let address = baseUrl;
  try {
    const url = new URL(baseUrl);
    address = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // Not a URL: no call went anywhere, the text is key enough.
  }
  return `${profile} ${address}`;
}

/** scope → site → runs, newest first. */
type Runs = Map<string, Map<string, KnownRun[]>>;

const isRecord = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

function asSeen(v: unknown): SeenEnd | undefined {
  if (!isRecord(v) || typeof v.outcome !== 'string' || v.outcome.length > 64 || !Array.isArray(v.prints))
    return undefined;
  const { prints, at } = v;
  if (typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  if (prints.length > RUNS_LIMITS.printsPerRun || !prints.every((p) => typeof p === 'string' && p.length <= 64))
    return undefined;
  return { outcome: v.outcome, at, prints: [...(prints as string[])] };
}

function asRun(v: unknown): KnownRun | undefined {
  if (!isRecord(v)) return undefined;
  const { jobId, startedAt, mode, queued, replyTries } = v;
  if (typeof jobId !== 'string' || !jobId || jobId.length > MAX_ID_LENGTH) return undefined;
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  if (mode !== undefined && mode !== 'build' && mode !== 'plan') return undefined;
  if (queued !== undefined && queued !== true) return undefined;
  const seen = asSeen(v.seen);
  const tries = typeof replyTries === 'number' && Number.isInteger(replyTries) && replyTries > 0 ? replyTries : 0;
  return {
    jobId,
    startedAt,
    ...(mode ? { mode } : {}),
    ...(queued ? { queued } : {}),
    ...(seen ? { seen } : {}),
    ...(tries ? { replyTries: tries } : {}),
  };
}

/** Only the newest runs of a site keep what was seen at their end. */
const trimSeen = (runs: KnownRun[]): KnownRun[] =>
  runs.map((r, i) => {
    if (i < RUNS_LIMITS.seenPerSite || !r.seen) return r;
    const { seen: _dropped, ...rest } = r;
    return rest;
  });

const byStart = (a: KnownRun, b: KnownRun) => b.startedAt - a.startedAt;
const latest = (runs: KnownRun[]) => runs[0]?.startedAt ?? Number.NEGATIVE_INFINITY;

/** Whatever does not have the expected shape is left out: the file is a memory, not a source of truth. */
function parseRuns(text: string | undefined): Runs {
  const runs: Runs = new Map();
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return runs;
  }
  if (!isRecord(parsed) || parsed.version !== VERSION || !isRecord(parsed.scopes)) return runs;
  for (const [scope, sites] of Object.entries(parsed.scopes)) {
    if (!isRecord(sites)) continue;
    const bySite = new Map<string, KnownRun[]>();
    for (const [site, list] of Object.entries(sites)) {
      const valid = Array.isArray(list) ? list.flatMap((r) => asRun(r) ?? []) : [];
      if (valid.length) bySite.set(site, valid.sort(byStart).slice(0, RUNS_LIMITS.runsPerSite));
    }
    if (bySite.size) runs.set(scope, bySite);
  }
  return runs;
}

/** Keeps the `limit` entries whose latest run is newest; among equals, those inserted last. */
function keepNewest<T>(map: Map<string, T>, limit: number, latestOf: (v: T) => number): Map<string, T> {
  if (map.size <= limit) return map;
  return new Map(
    [...map]
      .reverse()
      .sort(([, a], [, b]) => latestOf(b) - latestOf(a))
      .slice(0, limit),
  );
}

function serialize(runs: Runs): string {
  const scopes = Object.fromEntries([...runs].map(([scope, sites]) => [scope, Object.fromEntries(sites)]));
  return `${JSON.stringify({ version: VERSION, scopes })}\n`;
}

/** The runs known for a site in a scope (runsScope), newest first; empty when none. */
export function knownRuns(store: { dir: string }, scope: string, site: string): KnownRun[] {
  const runs = parseRuns(readPrivateFile(store.dir, `${store.dir}/${FILE_NAME}`));
  return [...(runs.get(scope)?.get(site) ?? [])];
}

/** Forgets the runs of a site in a scope: the service said it has not one of them (a 404). */
export async function forgetRuns(store: { dir: string }, scope: string, site: string): Promise<void> {
  await updatePrivateFile(store.dir, FILE_NAME, (text) => {
    const runs = parseRuns(text);
    const sites = runs.get(scope);
    sites?.delete(site);
    if (sites && !sites.size) runs.delete(scope);
    return serialize(runs);
  });
}

/**
 * Remembers a run of a site. A run already known keeps its first startedAt (it did not start
 * again) and takes the new mode when one is given. `latest`: a run new here is newer than every
 * run and end remembered before it, whatever its clock says: the clocks of two processes may
 * disagree (a clock set back, or an emulated one), and the order runs were remembered in is
 * the order this CLI met them.
 */
export async function rememberRun(
  store: { dir: string },
  scope: string,
  site: string,
  run: KnownRun,
  opts: { latest?: boolean } = {},
): Promise<void> {
  const checked = asRun(run);
  if (!checked) throw new TypeError(`Not a run to remember: ${JSON.stringify(run)}`);
  await updatePrivateFile(store.dir, FILE_NAME, (text) => {
    const runs = parseRuns(text);
    const sites = runs.get(scope) ?? new Map<string, KnownRun[]>();
    const list = sites.get(site) ?? [];
    const before = list.find((r) => r.jobId === checked.jobId);
    const mode = checked.mode ?? before?.mode;
    const seen = checked.seen ?? before?.seen;
    const tries = Math.max(checked.replyTries ?? 0, before?.replyTries ?? 0);
    const floor = Math.max(Number.NEGATIVE_INFINITY, ...list.flatMap((r) => [r.startedAt, r.seen?.at ?? r.startedAt]));
    const merged: KnownRun = {
      jobId: checked.jobId,
      // Its first start as remembered, not this clock's: a run placed after the floor below
      // stays there when it is remembered again (its end, by a clock that runs behind).
      startedAt: before?.startedAt ?? (opts.latest ? Math.max(checked.startedAt, floor + 1) : checked.startedAt),
      ...(mode ? { mode } : {}),
      ...(checked.queued ? { queued: true as const } : {}),
      ...(seen ? { seen } : {}),
      ...(tries ? { replyTries: tries } : {}),
    };
    const others = list.filter((r) => r.jobId !== checked.jobId);
    // Sorts are stable: among runs of the same instant, the one remembered last comes first.
    // The site and the scope are re-inserted last, so that an eviction among equals spares them.
    sites.delete(site);
    sites.set(site, trimSeen([merged, ...others].sort(byStart).slice(0, RUNS_LIMITS.runsPerSite)));
    runs.delete(scope);
    runs.set(scope, keepNewest(sites, RUNS_LIMITS.sitesPerProfile, latest));
    const pruned = keepNewest(runs, RUNS_LIMITS.scopes, (s) => Math.max(...[...s.values()].map(latest)));
    return serialize(pruned);
  });
}
