// Typed errors, each carrying its exit code (README.md "Exit codes"). core/run.ts maps them once.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 4,
  confirmationNeeded: 5,
  jobFailed: 6,
  rateLimited: 7,
  pending: 8,
  questionPending: 10,
  planPending: 11,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  readonly exitCode: number = ExitCode.failure;
  /** Extra fields for the JSON error document on stderr. */
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Bad flag, bad argument, client-side validation: nothing was sent. */
export class UsageError extends CliError {
  override readonly exitCode = ExitCode.usage;
}

/** A question needs an answer, or a step needs confirmation, and no prompt is possible. Nothing changed. */
export class ConfirmationNeededError extends CliError {
  override readonly exitCode = ExitCode.confirmationNeeded;
}

export class InterruptedError extends CliError {
  override readonly exitCode = ExitCode.interrupted;
  constructor(message = 'Interrupted.', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** Ctrl-D at a prompt: the end of input, as a shell takes it (the conversation leaves). */
export class EndOfInputError extends InterruptedError {}

/** Esc at a prompt (an InterruptedError, as Ctrl-C): with the text that was typed at it. */
export class EscapeError extends InterruptedError {
  constructor(readonly typed: string) {
    super('Cancelled.');
  }
}

/** The network failed (refused, reset, timed out) after the allowed retries. */
export class NetworkError extends CliError {
  override readonly exitCode = ExitCode.failure;
}

/** A run or a restore is still going on: --timeout reached, or detached. */
export class PendingError extends CliError {
  override readonly exitCode = ExitCode.pending;
}

export class JobFailedError extends CliError {
  override readonly exitCode = ExitCode.jobFailed;
}

export class QuestionPendingError extends CliError {
  override readonly exitCode = ExitCode.questionPending;
}

export class PlanPendingError extends CliError {
  override readonly exitCode = ExitCode.planPending;
}

export interface ApiErrorInit {
  status: number;
  method: string;
  message: string;
  requestId?: string;
  data?: unknown;
  retryAfterSeconds?: number;
  envelope?: unknown;
  /** Response headers (the api passthrough's --include shows them on a refusal too). */
  headers?: Record<string, string | string[] | undefined>;
  /** The site the call was about (its projectId), if any: a 404 for it gets a "did you mean". */
  site?: string;
}

/** How every sentence about a call names its request: ` (request req_…)`, or nothing without an id. */
export const requestNote = (requestId?: string): string => (requestId ? ` (request ${requestId})` : '');

/** The service refused or failed. The message is one plain sentence naming what to do next, with the request id. */
export class ApiError extends CliError {
  override readonly exitCode: number = ExitCode.failure;
  readonly status: number;
  readonly method: string;
  readonly requestId?: string;
  readonly data?: unknown;
  readonly serviceMessage: string;
  readonly envelope?: unknown;
  readonly headers?: Record<string, string | string[] | undefined>;
  readonly site?: string;
  constructor(init: ApiErrorInit, sentence: string) {
    super(sentence, {
      status: init.status,
      method: init.method,
      requestId: init.requestId ?? null,
      serviceMessage: init.message,
      data: init.data ?? null,
    });
    this.status = init.status;
    this.method = init.method;
    this.requestId = init.requestId;
    this.data = init.data;
    this.serviceMessage = init.message;
    this.envelope = init.envelope;
    this.headers = init.headers;
    this.site = init.site;
  }

  /** The same refusal (same kind, so the same exit code) told in another sentence; the request id is added. */
  withSentence(sentence: string): ApiError {
    const Kind = this.constructor as new (init: ApiErrorInit, sentence: string) => ApiError;
    const init = {
      status: this.status,
      method: this.method,
      message: this.serviceMessage,
      requestId: this.requestId,
      data: this.data,
      envelope: this.envelope,
      headers: this.headers,
      site: this.site,
    };
    const told = new Kind(init, `${sentence}${requestNote(this.requestId)}`);
    // What was added to the details after the error was made (an unknown outcome's key) stays.
    for (const [k, v] of Object.entries(this.details)) if (!(k in told.details)) told.details[k] = v;
    return told;
  }
}

/** 401, 403: no token, an unusable one, a missing scope, an unreachable workspace. */
export class AuthError extends ApiError {
  override readonly exitCode = ExitCode.auth;
}

/** 429 still in force after the allowed waiting. */
export class RateLimitError extends ApiError {
  override readonly exitCode = ExitCode.rateLimited;
}

/** No token at all: nothing was sent. */
export class NotLoggedInError extends CliError {
  override readonly exitCode = ExitCode.auth;
}
