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

export interface RunView {
  begin(projectId: string, jobId: string): Promise<void>;
  /** One get_job answer. With quiet, the lines are kept for recap() instead of printed. */
  answer(applied: AppliedAnswer, rawEvents: unknown[], opts?: { quiet?: boolean }): void;
  /** After a quiet first answer (attaching to a run): a short summary of what happened so far. */
  recap(state: RunState): void;
  /** A transient status (cancelling…) for the spinner, or a note in the other views. */
  status(text: string): void;
  end(end: RunEnd): void;
  /** Stops the spinner (before a prompt, or on an error). */
  stop(): void;
}
