// What a view of a followed run is (RunView), and how a run ends (RunEnd): the contract between
// the commands that follow a run and the views that print it (views.ts, json-view.ts).
import type { Outcome, RunState, AppliedAnswer } from './reducer.js';

export interface PendingQuestion {
  kind: 'question';
  /** The run whose question it is. */
  jobId: string;
  /** Its words; null when the service sent them in a form that could not be read. */
  question: string | null;
  options: string[];
  /** Commands that answer it. */
  answer: string[];
}
export interface PendingPlan {
  kind: 'plan';
  jobId: string;
  /** Its text; null when it could not be read or none came (never an empty plan shown as one). */
  plan: string | null;
  approve: string;
  revise: string;
}
export type Pending = PendingQuestion | PendingPlan;

/** Why a run was detached from: Ctrl-C, no connection to the service for too long, or a refusal of the service. */
export type DetachReason = 'interrupted' | 'connection_lost' | 'refused';

export interface RunEnd {
  state: RunState;
  outcome: Outcome | 'detached' | 'timeout';
  exitCode: number;
  /** How long the run was followed. */
  elapsedMs: number;
  /**
   * How long the run took, as measured: followed from its start to its end. Undefined when its
   * start was not seen (attached to it), or its end.
   */
  runMs?: number;
  /** Attached to a run that was going on: how long it was watched until it ended. */
  watchedMs?: number;
  reason?: DetachReason;
  pending?: Pending;
  /** The command that re-attaches (detached, timeout). */
  reattach?: string;
}

/** What became of a cancel_job sent on Esc: sent and taken, or refused (with the sentence that says why). */
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
  /**
   * The run ended: what its answers brought is made ready to print (rendered), yielding as it
   * goes so that Ctrl-C is honoured at once, and stopping when the signal aborts.
   */
  settle?(signal?: AbortSignal): Promise<void>;
  /** After a quiet first answer (attaching to a run): a short summary of what happened so far. */
  recap(state: RunState): void;
  /** A transient status (cancelling…) for the spinner, or a note in the other views. */
  status(text: string): void;
  /** The spinner's label for a while (connection lost, retrying); undefined gives it back. Spinners only. */
  progress?(text: string | undefined): void;
  /** How a cancel asked for with Esc went: a lasting line (a refusal must not pass as "Cancelling…"). */
  cancelled(notice: CancelNotice): void;
  /** A lasting line of ours on stderr while the run goes on (what the keys do), after what is played back. */
  note?(text: string): void;
  /** A conversation: the text typed so far during the run, kept for the next message ('' for none). */
  typed?(text: string): void;
  end(end: RunEnd): void;
  /** Stops the spinner (before a prompt, or on an error), printing whatever is still held back. */
  stop(): void;
}
