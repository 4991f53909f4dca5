// A failed run would say its message three times: the failed step, the run's error that repeats
// it, and the end line. So in the pretty view (views.ts) a failed step waits for the next line
// and is dropped when that is an error saying the same (the end line, too, leaves out an error
// already printed). Plain output keeps every line for scripts.
import type { TranscriptLine } from './transcript.js';

type Result = Extract<TranscriptLine, { kind: 'result' }>;

const bare = (t: string) => t.toLowerCase().replace(/[\s.…]+$/, '');

export class FailureRepeats {
  /** A failed step, held until we know the run's error does not repeat it. */
  private held?: Result;

  /** The lines to print; `final`: nothing comes after them, a held step is printed. */
  without(lines: TranscriptLine[], final = false): TranscriptLine[] {
    const out: TranscriptLine[] = [];
    for (const l of lines) {
      const held = this.held;
      this.held = undefined;
      if (held && !(l.kind === 'error' && bare(l.message).includes(bare(held.summary)))) out.push(held);
      if (l.kind === 'result' && l.failed) this.held = l;
      else out.push(l);
    }
    if (final && this.held) {
      out.push(this.held);
      this.held = undefined;
    }
    return out;
  }
}
