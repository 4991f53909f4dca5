// A service of another shape for command tests: a scripted server on 127.0.0.1 that answers
// each method with the data a test sets (a shape the reference leaves open, or a broken one),
// and 404 for any other method, as the service does. Every request is recorded.
import { envelope, type RecordedRequest, type ScriptedAnswer, startScriptServer } from './script-server.js';

/** A method's answer: its `data` (enveloped as the service does), or a whole scripted answer. */
export type MethodAnswer =
  | ((req: RecordedRequest) => ScriptedAnswer)
  | Record<string, unknown>
  | unknown[]
  | string
  | number
  | boolean
  | null;

export interface MethodServer {
  baseUrl: string;
  /** By method name; set in a test, cleared by reset(). */
  answers: Record<string, MethodAnswer>;
  /** The bodies sent to a method, in order. */
  sent(method: string): Record<string, unknown>[];
  /** The Idempotency-Key of each call of a method, in order (undefined where none was sent). */
  keys(method: string): Array<string | undefined>;
  reset(): void;
  close(): Promise<void>;
}

export async function startMethodServer(): Promise<MethodServer> {
  const server = await startScriptServer();
  const answers: Record<string, MethodAnswer> = {};
  server.answerFor = (req) => {
    const method = req.url.replace(/^\/v1\//, '');
    const answer = answers[method];
    if (answer === undefined) return { status: 404, body: envelope(null, 404, `No tool named ${method}.`) };
    return typeof answer === 'function' ? answer(req) : { body: envelope(answer) };
  };
  return {
    baseUrl: server.baseUrl,
    answers,
    sent: (method) => server.requests.filter((r) => r.url === `/v1/${method}`).map((r) => JSON.parse(r.body || '{}')),
    keys: (method) =>
      server.requests
        .filter((r) => r.url === `/v1/${method}`)
        .map((r) => r.headers['idempotency-key'] as string | undefined),
    reset() {
      for (const k of Object.keys(answers)) delete answers[k];
      server.requests.length = 0;
    },
    close: () => server.close(),
  };
}
