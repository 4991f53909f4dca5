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

  /**
   * Agent text, streamed as a model streams it: in pieces of 6 to 40 characters cut anywhere
   * (mid-word, inside a `**`, inside a fence, between the CR and the LF of a CRLF), the cuts
   * drawn from the text itself, so the same text always arrives the same way.
   */
  say(text: string): void {
    for (const piece of cutPieces(text)) this.add('text', { text: piece }, PIECE_MS);
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

/** A small deterministic generator (mulberry32) seeded from the text. */
function generator(text: string): () => number {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Where the text is cut: every 6 to 40 characters, and always inside the first CRLF, `**` and fence. */
export function cutPieces(text: string): string[] {
  const next = generator(text);
  const cuts = new Set<number>();
  for (let at = 6 + Math.floor(next() * 35); at < text.length; at += 6 + Math.floor(next() * 35)) cuts.add(at);
  for (const [marker, into] of [
    ['\r\n', 1],
    ['**', 1],
    ['```', 2],
  ] as const) {
    const at = text.indexOf(marker);
    if (at >= 0) cuts.add(at + into);
  }
  const pieces: string[] = [];
  let from = 0;
  for (const at of [...cuts].sort((a, b) => a - b)) {
    // Never inside a surrogate pair: a piece is a valid string.
    if (at <= from || at >= text.length || /[\udc00-\udfff]/.test(text[at] as string)) continue;
    pieces.push(text.slice(from, at));
    from = at;
  }
  if (from < text.length) pieces.push(text.slice(from));
  return pieces;
}
