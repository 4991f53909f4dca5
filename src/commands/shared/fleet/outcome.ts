// How one site of a batch ended, and what the batch exits with: the most severe of its sites'
// codes (docs/scripting.md "Many sites at once"), and which codes --fail-fast stops on.
import { ExitCode } from '../../../errors.js';

/** How one site ended. */
export interface SiteOutcome {
  site: string;
  /** One word a script can match: live, failed, succeeded, question, plan, pending, skipped, … */
  outcome: string;
  exitCode: number;
  /** The third column: the live address (publish) or the run (chat); '' when there is none. */
  ref: string;
  /** A sentence for a person: the failure, what waits, why it was skipped. */
  note?: string;
  /** The commands that come next: the reply (naming the run with --job), the re-attach. */
  next?: string[];
  /** The NDJSON record's own fields. */
  record: Record<string, unknown>;
  elapsedMs: number;
}

/**
 * The process's exit code is the most severe of the sites' (docs/scripting.md "Many sites at
 * once"): authentication, usage, a refusal or failure, a failed run, the rate limit, a
 * confirmation needed, a question, a plan, still pending. 0 only when every site ended well.
 */
export const SEVERITY: readonly number[] = [
  ExitCode.auth,
  ExitCode.usage,
  ExitCode.failure,
  ExitCode.jobFailed,
  ExitCode.rateLimited,
  ExitCode.confirmationNeeded,
  ExitCode.questionPending,
  ExitCode.planPending,
  ExitCode.pending,
  ExitCode.interrupted,
];

export function worstExit(codes: Iterable<number>): number {
  let worst: number = ExitCode.ok;
  const rank = (c: number) => {
    const i = SEVERITY.indexOf(c);
    return i < 0 ? (c === 0 ? SEVERITY.length + 1 : SEVERITY.length) : i;
  };
  for (const c of codes) if (rank(c) < rank(worst)) worst = c;
  return worst;
}

/** Failures that --fail-fast stops on (not what waits for a reply, nor what is still pending). */
export const isFailure = (code: number): boolean =>
  ([ExitCode.auth, ExitCode.usage, ExitCode.failure, ExitCode.jobFailed, ExitCode.rateLimited] as number[]).includes(
    code,
  );
