// What clients sent and how often, for tests and `sitebuilder emulator --debug`: one entry per
// request under /v1/. A ring of the latest entries (see MAX_ENTRIES), cleared by reset.

export interface LogEntry {
  seq: number;
  /** Emulated time of the request's arrival (when the budget counts it), ISO-8601. */
  time: string;
  requestId: string;
  verb: string;
  path: string;
  /** The method name for POST /v1/<method>; null for other addresses. */
  method: string | null;
  token: string | null;
  idempotencyKey: string | null;
  status: number;
  /** Answered from an earlier result by Idempotency-Key. */
  replayed: boolean;
  /** Counted against the minute's budget. */
  counted: boolean;
  /** The injected fault that shaped the answer, if any. */
  fault: {
    id: number;
    when: string;
    status: number | null;
    drop: boolean;
    latencyMs: number;
    bytesPerSecond?: number;
  } | null;
  /** The arguments, for bodies up to ARGS_MAX_BYTES. */
  args?: unknown;
}

const MAX_ENTRIES = 10_000;
export const ARGS_MAX_BYTES = 16 * 1024;

export class RequestLog {
  private entries: LogEntry[] = [];
  private seq = 0;
  /** Called with each entry (the emulator command prints them with --debug). */
  listener?: (entry: LogEntry) => void;

  add(entry: Omit<LogEntry, 'seq'>): void {
    const full = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    if (this.entries.length > MAX_ENTRIES * 1.1) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    this.listener?.(full);
  }

  list(filter: { method?: string; since?: number } = {}): LogEntry[] {
    return this.entries.filter(
      (e) => (!filter.method || e.method === filter.method) && (!filter.since || e.seq > filter.since),
    );
  }

  clear(): void {
    this.entries = [];
  }
}
