// A run as a timeline of events at emulated offsets (ms from the run's start). The job's
// visible events, state and effects are derived from it and the clock, so a run needs no timer
// to progress, follows the clock speed, and survives saving and loading the state.

export interface ScriptEvent {
  at: number;
  event: string;
  data: Record<string, unknown>;
  /** A file the agent writes (file_changed) or deletes (file_deleted) when this event happens. */
  write?: { path: string; content: string };
  remove?: string;
}

export interface RunScript {
  events: ScriptEvent[];
  /** Offset at which the run is over. */
  endAt: number;
  finalState: 'succeeded' | 'failed';
  /** Windows [from, to) in which the job reads `stalled`; no event happens inside one. */
  stalls: Array<{ from: number; to: number }>;
  /** From this offset on, the event log is replayed from the start and get_job answers reset true. */
  resetAt?: number;
  credits: number;
  outcome: 'done' | 'question' | 'plan';
  error?: { code: string; message: string };
}

export const PIECE_MS = 250;

export class Timeline {
  t = 0;
  readonly events: ScriptEvent[] = [];
  readonly stalls: Array<{ from: number; to: number }> = [];
  private ids = 0;

  /** Agent text, streamed in pieces of a few words. */
  say(text: string): void {
    const pieces = text.match(/\S+\s*|\s+/g) ?? [];
    let piece = '';
    for (const word of pieces) {
      piece += word;
      if (piece.length >= 18 || /\n/.test(word)) {
        this.add('text', { text: piece }, PIECE_MS);
        piece = '';
      }
    }
    if (piece) this.add('text', { text: piece }, PIECE_MS);
  }

  add(event: string, data: Record<string, unknown>, gap: number, extra: Partial<ScriptEvent> = {}): ScriptEvent {
    this.t += gap;
    const ev: ScriptEvent = { at: this.t, event, data, ...extra };
    this.events.push(ev);
    return ev;
  }

  /** A tool step: tool_call, then its tool_result. */
  step(name: string, input: Record<string, unknown>, result: Record<string, unknown>, gap: number): void {
    const id = `call_${++this.ids}`;
    this.add('tool_call', { id, name, input }, gap);
    this.add('tool_result', { id, name, ...result }, Math.round(gap / 2));
  }

  stall(seconds: number): void {
    const from = this.t + 1;
    this.t = from + seconds * 1000;
    this.stalls.push({ from, to: this.t });
  }

  nextCallId(): string {
    return `call_${++this.ids}`;
  }
}
