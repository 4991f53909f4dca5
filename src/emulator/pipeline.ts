// One method call from request to answer, in the order the service decides things:
//
//   400 token in address → 405 → 401 → 404 unknown method (not counted) → 413 / 400 body not
//   a JSON object (not counted) → Idempotency-Key replay (not counted) → the minute's budget
//   (429, runs nothing) → 400 bad key → 422 / 409 on the key → 403 scope → 400 arguments →
//   injected fault "before" → latency → the handler → injected fault "after" / dropped answer.
//
// Everything from the budget on is counted. A claimed key keeps whatever answer the handler
// produced, even when an injected fault answered the client otherwise, so a retry with the
// same key replays the real result and creates nothing twice.
//
// The shapes layer (src/emulator/shapes/) sits at three points: the arguments before they are
// checked, the handler's data (and a refusal's) before the answer is kept, and the envelope
// before it is written.
import { isIdempotencyKey } from '../api/limits.js';
import { type MethodInfo, methodInfo } from '../api/method-index.js';
import { checkArgsAgainstSchema } from '../api/validate.js';
import { authenticate, refuseTokenInAddress } from './auth.js';
import { createCallContext } from './call-context.js';
import { discovery, isDiscoveryPath } from './discovery.js';
import type { Emulator } from './emulator.js';
import type { ApiAnswer, ApiRequest } from './api-exchange.js';
import { envelope, type Envelope } from './envelope.js';
import type { Fault } from './faults.js';
import { fingerprint } from './idempotency.js';
import { EmulatorRefusal, refuse } from './refusal.js';
import { ARGS_MAX_BYTES } from './request-log.js';
import type { TokenRecord, UserRecord } from './state.js';
import type { HandlerResult } from './host.js';

interface Trace {
  method: string | null;
  token?: TokenRecord;
  key: string | null;
  counted: boolean;
  replayed: boolean;
  fault: Fault | null;
  /** A bandwidth fault that slowed the body. */
  slow?: Fault;
  /** The fault answered instead of the handler (nothing took effect). */
  faultBefore?: boolean;
  args?: unknown;
}

export async function handleApiRequest(emu: Emulator, req: ApiRequest): Promise<ApiAnswer> {
  emu.clock.runDue();
  // The log's time is the request's arrival, when the minute's budget counts it: a handler that
  // takes a while (a fault's latency, a fast clock) does not move it into the next minute.
  const arrived = emu.clock.now();
  const requestId = emu.newRequestId();
  const trace: Trace = { method: null, key: null, counted: false, replayed: false, fault: null };
  let answer: ApiAnswer;
  try {
    answer = await route(emu, req, requestId, trace);
  } catch (err) {
    answer = refusalAnswer(emu, err, requestId);
  }
  // Extra envelope fields of the alternate shapes on every answer (a kept or replayed one has them).
  answer.body = emu.shapes.envelope(answer.body, requestId, emu.iso(emu.clock.now()));
  const budget = emu.budgets.view(trace.token?._id);
  answer.headers['X-Request-Id'] = requestId;
  answer.headers['X-RateLimit-Limit'] = String(budget.limit);
  answer.headers['X-RateLimit-Remaining'] = String(budget.remaining);
  answer.headers['X-RateLimit-Reset'] = String(budget.resetSeconds);
  const met = trace.fault ?? trace.slow ?? null;
  emu.log.add({
    time: emu.iso(arrived),
    requestId,
    verb: req.verb,
    path: req.url.pathname,
    method: trace.method,
    token: trace.token?.name ?? null,
    idempotencyKey: trace.key,
    status: answer.status,
    replayed: trace.replayed,
    counted: trace.counted,
    fault: met && {
      id: met.id,
      when: met.when,
      status: met.status,
      drop: met.drop,
      latencyMs: met.latencyMs,
      ...(trace.slow ? { bytesPerSecond: trace.slow.bytesPerSecond as number } : {}),
    },
    ...(trace.args !== undefined ? { args: trace.args } : {}),
  });
  return answer;
}

export function refusalAnswer(emu: Emulator, err: unknown, requestId: string): ApiAnswer {
  if (err instanceof EmulatorRefusal) {
    return { status: err.status, body: envelope(err.status, err.message, err.data), headers: { ...err.headers } };
  }
  emu.onError(err, requestId);
  const message = `The emulator failed while answering (request ${requestId}): ${(err as Error)?.message ?? String(err)}`;
  return { status: 500, body: envelope(500, message, null), headers: {} };
}

async function route(emu: Emulator, req: ApiRequest, requestId: string, trace: Trace): Promise<ApiAnswer> {
  refuseTokenInAddress(req.url, req.rawUrl);
  const name = req.url.pathname.slice('/v1/'.length);
  if (isDiscoveryPath(req.url.pathname)) {
    if (req.verb !== 'GET' && req.verb !== 'HEAD')
      refuse(405, `${req.url.pathname} is read with GET.`, null, { Allow: 'GET' });
    const answer = discovery(emu, req, trace);
    const data = emu.shapes.outgoing(`GET ${req.url.pathname}`, answer.body.data);
    return { ...answer, body: { ...answer.body, data } };
  }
  const spec = methodInfo(name);
  if (spec && req.verb !== 'POST') {
    refuse(405, `${name} is called with POST, not ${req.verb}.`, null, { Allow: 'POST' });
  }
  const { token, user } = authenticate(emu, req.headers);
  trace.token = token;
  if (!spec) {
    const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
    refuse(404, `There is no tool named "${shown}". GET /v1/tools lists the tools this token can use.`, {
      reason: 'unknown-method',
    });
  }
  trace.method = spec!.name;
  return callMethod(emu, req, spec!, token, user, requestId, trace);
}

async function callMethod(
  emu: Emulator,
  req: ApiRequest,
  spec: MethodInfo,
  token: TokenRecord,
  user: UserRecord,
  requestId: string,
  trace: Trace,
): Promise<ApiAnswer> {
  // A bandwidth fault slows the body itself; the others come after the checks (runClaimed).
  const slow = emu.faults.takeBandwidth(spec.name);
  if (slow) trace.slow = slow;
  const raw = await req.readBody(slow?.bytesPerSecond ?? undefined);
  const args = parseBody(raw);
  if (raw.length <= ARGS_MAX_BYTES) trace.args = args;

  const keyHeader = req.headers['idempotency-key'];
  const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
  const keyValid = key !== undefined && isIdempotencyKey(key);
  if (key !== undefined) trace.key = key;
  const print = keyValid ? fingerprint({ method: spec.name, args }) : '';
  if (keyValid) {
    const found = emu.idempotency.lookup(token._id, key!, spec.name, print);
    if (found.kind === 'replay') {
      trace.replayed = true;
      return {
        status: found.answer.status,
        body: found.answer.body as Envelope,
        headers: { 'Idempotent-Replayed': 'true', 'X-Original-Request-Id': found.answer.requestId },
      };
    }
  }

  if (!emu.budgets.take(token._id)) {
    const { resetSeconds } = emu.budgets.view(token._id);
    refuse(
      429,
      `Too many tool calls, wait ${resetSeconds} seconds.`,
      { reason: 'rate-limited', retryAfter: resetSeconds },
      {
        'Retry-After': String(resetSeconds),
      },
    );
  }
  trace.counted = true;

  if (key !== undefined && !keyValid) {
    refuse(400, 'The Idempotency-Key header must be 1 to 255 visible characters (no spaces or control characters).', {
      reason: 'bad-idempotency-key',
    });
  }
  if (keyValid) {
    const found = emu.idempotency.lookup(token._id, key!, spec.name, print);
    if (found.kind === 'mismatch') {
      refuse(
        422,
        'This Idempotency-Key was already used with a different method or body; send a new key for a new request.',
        {
          reason: 'idempotency-key-reused',
        },
      );
    }
    if (found.kind === 'inFlight') {
      refuse(409, 'A request with this Idempotency-Key is still in flight; retry once it has finished.', {
        reason: 'idempotency-in-flight',
      });
    }
    emu.idempotency.claim(token._id, key!, spec.name, print);
  }

  let answer: ApiAnswer;
  let keep = true;
  try {
    answer = await runClaimed(emu, spec, args, token, user, requestId, keyValid ? key : undefined, trace);
  } catch (err) {
    answer = refusalAnswer(emu, err, requestId);
    answer.body.data = emu.shapes.refusal(spec.name, answer.body.data);
    // A crash is the service's failure: nothing is kept, a retry with the key runs again.
    keep = err instanceof EmulatorRefusal;
  }
  // The envelope as it is kept: a replay answers it again as it was.
  answer.body = emu.shapes.envelope(answer.body, requestId, emu.iso(emu.clock.now()));
  if (keyValid) {
    if (trace.faultBefore || !keep) emu.idempotency.release(token._id, key!);
    else emu.idempotency.complete(token._id, key!, { status: answer.status, body: answer.body, requestId });
  }
  const fault = trace.fault;
  if (fault && fault.when === 'after') {
    if (fault.status !== null) return faultAnswer(fault, spec.name);
    if (fault.drop) return { ...answer, drop: true };
  }
  return answer;
}

async function runClaimed(
  emu: Emulator,
  spec: MethodInfo,
  args: Record<string, unknown>,
  token: TokenRecord,
  user: UserRecord,
  requestId: string,
  key: string | undefined,
  trace: Trace,
): Promise<ApiAnswer> {
  if (!token.scopes.includes(spec.scope)) {
    refuse(403, `This token lacks the scope ${spec.scope}, which ${spec.name} needs.`, {
      reason: 'missing-scope',
      scope: spec.scope,
    });
  }
  // The arguments as the domains take them: the alternate shapes' numeric cursors become theirs.
  const shaped = emu.shapes.incoming(spec.name, args);
  const problem = checkArgsAgainstSchema(spec.name, spec.schema, shaped);
  if (problem) refuse(400, problem.message, { reason: 'invalid-argument', argument: problem.path || null });

  const fault = emu.faults.take(spec.name) ?? null;
  trace.fault = fault;
  if (fault && fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
  if (fault && fault.when === 'before' && (fault.status !== null || fault.drop)) {
    trace.faultBefore = true;
    if (fault.status !== null) return faultAnswer(fault, spec.name);
    return { status: 200, body: envelope(200, 'OK', null), headers: {}, drop: true };
  }

  const handler = emu.handlerFor(spec.name);
  if (!handler) {
    refuse(501, `${spec.name} is not emulated yet; the emulator answers it once its domain lands.`, {
      reason: 'not-emulated',
    });
  }
  const call = createCallContext({ emu, spec, args: shaped, token, user, requestId, idempotencyKey: key });
  const result: HandlerResult = await handler!(call);
  const status = result.status ?? 200;
  const data = emu.shapes.outgoing(spec.name, result.data ?? null);
  return {
    status,
    body: envelope(status, result.message ?? 'OK', data, { count: result.count, fields: result.fields }),
    headers: {},
  };
}

function faultAnswer(fault: Fault, method: string): ApiAnswer {
  const status = fault.status!;
  const message = fault.message ?? `Injected fault: ${method} answered ${status} (emulator control API).`;
  const headers: Record<string, string> = {};
  if (status === 429) headers['Retry-After'] = '1';
  return { status, body: envelope(status, message, { reason: 'injected-fault', faultId: fault.id }), headers };
}

function parseBody(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    refuse(400, 'The body is not valid JSON; send a JSON object holding the arguments ({} when there are none).', {
      reason: 'invalid-json',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    refuse(400, 'The body must be a JSON object holding the arguments ({} when there are none).', {
      reason: 'body-not-object',
    });
  }
  return value as Record<string, unknown>;
}
