// The --json view of a followed run: NDJSON. The events pass through exactly as the service
// sent them; our own lines carry `type` (start, state, reset) and exactly one `end` line closes it.
import { asEvent } from '../service/events.js';
import { creditsOfRun, runErrorOf, type AppliedAnswer } from './reducer.js';
import type { CancelNotice, RunEnd, RunView } from './run-view.js';
import type { IO } from '../io/io.js';

export class JsonRunView implements RunView {
  private projectId = '';
  private jobId = '';
  private started = false;
  constructor(private readonly io: IO) {}

  async begin(projectId: string, jobId: string): Promise<void> {
    this.projectId = projectId;
    this.jobId = jobId;
  }

  /** The start line comes with the first answer: a run that cannot be read leaves stdout empty. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    this.io.printJsonLine({ type: 'start', projectId: this.projectId, jobId: this.jobId });
  }

  answer(applied: AppliedAnswer, raw: unknown[]): void {
    this.start();
    if (applied.reset) this.io.printJsonLine({ type: 'reset', jobId: this.jobId });
    // Events pass through unchanged, whatever their kind or shape.
    for (const ev of raw) this.io.printJsonLine(ev && typeof ev === 'object' ? ev : asEvent(ev));
    if (applied.stateChanged) this.io.printJsonLine({ type: 'state', jobId: this.jobId, state: applied.state.state });
  }

  recap(): void {}
  status(): void {}

  cancelled(notice: CancelNotice): void {
    this.start();
    this.io.printJsonLine({ type: 'cancel', jobId: this.jobId, ok: notice.ok, message: notice.message });
  }

  end(end: RunEnd): void {
    this.start();
    const s = end.state;
    this.io.printJsonLine({
      type: 'end',
      projectId: this.projectId,
      jobId: this.jobId,
      state: s.state,
      outcome: end.outcome,
      exitCode: end.exitCode,
      creditsCharged: creditsOfRun(s) ?? null,
      // The service shows no field of the job's error: code and message are read from the obvious
      // names, and `raw` keeps the object as sent (docs/scripting.md).
      error: s.state === 'failed' ? runErrorOf(s) : null,
      pending: end.pending ?? null,
      reattach: end.reattach ?? null,
      // Why it was detached from (Ctrl-C, the connection lost, a refusal), else null.
      reason: end.reason ?? null,
    });
  }

  stop(): void {}
}
