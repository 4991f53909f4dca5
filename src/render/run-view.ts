// What a view of a followed run is (RunView), and how a run ends (RunEnd): the contract between
// the commands that follow a run and the views that print it (views.ts, json-view.ts).
import type { Outcome, RunState, AppliedAnswer } from './reducer.js';

export interface PendingQuestion {
  kind: 'question';
  question: string;
  options: string[];
  /** Commands that answer it. */
  answer: string[];
}
export interface PendingPlan {
  kind: 'plan';
  plan: string;
  approve: string;
  revise: string;
}
export type Pending = PendingQuestion | PendingPlan;

export interface RunEnd {
  state: RunState;
  outcome: Outcome | 'detached' | 'timeout';
  exitCode: number;
  elapsedMs: number;
  pending?: Pending;
  /** The command that re-attaches (detached, timeout). */
  reattach?: string;
}

/** What became of a cancel_job sent on Ctrl-C: sent and taken, or refused (with the sentence that says why). */
export interface CancelNotice {
  ok: boolean;
  message: string;
}

export interface RunView {
  begin(projectId: string, jobId: string): Promise<void>;
  /** One get_job answer. With quiet, the lines are kept for recap() instead of printed. */
  answer(applied: AppliedAnswer, rawEvents: unknown[], opts?: { quiet?: boolean }): void;
  /**
   * Plays back what the last answer brought, progressively, until the clock reads `until` (the
   * next poll); resolves early when everything is shown or the signal aborts. Views that print
   * at once (plain, NDJSON) do not have it.
   */
  play?(until: number, signal?: AbortSignal): Promise<void>;
  /** After a quiet first answer (attaching to a run): a short summary of what happened so far. */
  recap(state: RunState): void;
  /** A transient status (cancelling…) for the spinner, or a note in the other views. */
  status(text: string): void;
  /** How a cancel sent on Ctrl-C went: a lasting line (a refusal must not pass as "Cancelling…"). */
  cancelled(notice: CancelNotice): void;
  end(end: RunEnd): void;
  /** Stops the spinner (before a prompt, or on an error), printing whatever is still held back. */
  stop(): void;
}
