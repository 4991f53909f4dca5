// What doctor reads (docs/real-service.md "doctor"): the three GET addresses, which spend no
// budget, then at most five counted calls, each a read, each made once (a failure is reported,
// never retried, so the count holds; a 429 from the minute's budget, which counts nothing, is
// waited out by the client as for every command). The five are the first of PLAN that can be made, in its
// order; a call that cannot be made (no site, no run to read) gives its turn to the next.
import type { CallResult } from '../../api/call.js';
import { methodInfo } from '../../api/method-index.js';
import { knownRuns } from '../../config/runs.js';
import { runsScopeOf } from '../shared/run/known-runs.js';
import type { Context } from '../../context.js';
import { ApiError, CliError, ExitCode, InterruptedError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { findList } from '../../service/page.js';
import { skeleton } from '../../service/skeleton.js';
import { type CallRecord, PLAN, type Step, type Targets } from './plan.js';

/** The most counted calls doctor makes: the figure its help and its report state. */
export const COUNTED_CALLS_MAX = 5;

export interface Answer {
  result: CallResult;
  data: unknown;
}

export interface Reading {
  calls: CallRecord[];
  answers: Map<string, Answer>;
  targets: Targets;
}

/** Records in an answer that is a list of them; null for one record (a run, the token) or a document. */
const recordCount = (method: string, data: unknown): number | null => {
  if (method === 'get_job' || (method.startsWith('GET ') && method !== 'GET /v1/tools')) return null;
  const list = findList(data);
  return Array.isArray(list) ? list.length : null;
};

type Planned = Pick<CallRecord, 'method' | 'counted' | 'args' | 'why'>;

/** A call as the report shows it, its keys always in this order. */
const callRecord = (p: Planned, outcome: CallRecord['outcome'], error: string | null = null): CallRecord => ({
  method: p.method,
  counted: p.counted,
  args: p.args,
  why: p.why,
  outcome,
  status: null,
  requestId: null,
  records: null,
  error,
  exitCode: null,
  shape: null,
});

/** What a call read: its status, request id, records, and the shape of its data. */
function noteAnswer(reading: Reading, record: CallRecord, result: CallResult): Answer {
  const data = result.envelope.data;
  record.status = result.status;
  record.requestId = result.requestId ?? null;
  record.records = recordCount(record.method, data);
  if (record.method !== 'GET /v1/openapi.json') record.shape = skeleton(data);
  const answer = { result, data };
  reading.answers.set(record.method, answer);
  return answer;
}

async function attempt(
  reading: Reading,
  planned: Planned,
  send: () => Promise<CallResult>,
): Promise<Answer | undefined> {
  const record = callRecord(planned, 'read');
  reading.calls.push(record);
  try {
    return noteAnswer(reading, record, await send());
  } catch (err) {
    // Ctrl-C, and a token the service does not take (401), end doctor as they end every command.
    if (err instanceof InterruptedError || !(err instanceof CliError)) throw err;
    if (err instanceof ApiError && err.status === 401) throw err;
    record.outcome = err instanceof ApiError && err.status < 500 ? 'refused' : 'failed';
    record.status = err instanceof ApiError ? err.status : null;
    record.requestId = err instanceof ApiError ? (err.requestId ?? null) : null;
    record.error = err.message;
    record.exitCode = err.exitCode;
    return undefined;
  }
}

/**
 * The newest run this CLI started or followed on a site (what it saw itself, runs.json), if any.
 * The file is a memory, not doctor's work: one that cannot be read is said once and left alone.
 */
function runsSeenHere(ctx: Context): (site: string) => string | undefined {
  const memo = new Map<string, string | undefined>();
  let unreadable = false;
  return (site) => {
    if (unreadable) return undefined;
    if (!memo.has(site)) {
      try {
        memo.set(site, knownRuns(ctx.config, runsScopeOf(ctx), site).find((r) => !r.queued)?.jobId);
      } catch (err) {
        unreadable = true;
        ctx.io.warn(
          `Could not read the runs started from here (${sanitizeInline(String((err as Error).message ?? err))}); going on without them.`,
        );
        return undefined;
      }
    }
    return memo.get(site);
  };
}

/** Reads the GET addresses, then the counted calls of the plan, and what each answered. */
export async function readService(ctx: Context, given: Targets): Promise<Reading> {
  const reading: Reading = { calls: [], answers: new Map(), targets: { ...given } };
  const api = ctx.api();
  // The token first: a token the service does not take ends doctor here, as every command (exit 4).
  const token = await api.get('/v1/token', ctx.signal);
  const tokenCall = callRecord(
    { method: 'GET /v1/token', counted: false, args: null, why: 'the token record' },
    'read',
  );
  reading.calls.push(tokenCall);
  noteAnswer(reading, tokenCall, token);
  for (const path of ['/v1/tools', '/v1/openapi.json'] as const) {
    const why = path === '/v1/tools' ? 'the methods the token can use' : 'the service’s description';
    await attempt(reading, { method: `GET ${path}`, counted: false, args: null, why }, () => api.get(path, ctx.signal));
  }
  const runOf = runsSeenHere(ctx);
  let made = 0;
  for (const step of PLAN) {
    const t = reading.targets;
    if (step.method === 'get_job' && t.run === undefined && t.site !== undefined) {
      const seen = runOf(t.site);
      if (seen !== undefined) Object.assign(t, { run: seen, runFrom: 'the newest run this machine followed' });
    }
    const planned = step.args(t);
    if ('skip' in planned) {
      reading.calls.push(callRecord({ ...step, counted: true, args: null }, 'skipped', planned.skip));
      continue;
    }
    const args = planned.send;
    if (made >= COUNTED_CALLS_MAX) {
      const why = `doctor makes at most ${COUNTED_CALLS_MAX} counted calls`;
      reading.calls.push(callRecord({ ...step, counted: true, args }, 'not made', why));
      continue;
    }
    made++;
    const answer = await sendRead(ctx, reading, step, args);
    if (answer) step.learn?.(answer.data, t, { runOf });
  }
  return reading;
}

function sendRead(ctx: Context, reading: Reading, step: Step, args: Record<string, unknown>) {
  // Whatever PLAN holds, doctor never sends a write.
  if (methodInfo(step.method)?.write !== false) throw new CliError(`doctor reads only; ${step.method} is not a read.`);
  return attempt(reading, { method: step.method, counted: true, args, why: step.why }, () =>
    // A step's method and its arguments are paired in plan.ts; here they are any step's.
    ctx.api().call<string>(step.method, args, { signal: ctx.signal, maxAttempts: 1 }),
  );
}

/** The exit code of a reading: 0 when every call made was read; else the most severe of theirs (4, 1, 7). */
export function readingExitCode(calls: CallRecord[]): number {
  const codes = calls.filter((c) => c.exitCode !== null).map((c) => c.exitCode as number);
  for (const code of [ExitCode.auth, ExitCode.failure, ExitCode.rateLimited]) if (codes.includes(code)) return code;
  return codes.length ? ExitCode.failure : ExitCode.ok;
}
