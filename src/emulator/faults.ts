// Fault injection (control API): for a method (or every method), answer a status for the next
// N calls, either before the handler ran (nothing took effect) or after (the write happened,
// the answer says otherwise: what proves a retry with the same key creates nothing twice);
// add latency; drop the connection in the middle of the answer; or read the request's body
// slowly (a bandwidth fault: a slow uplink, for progress and Ctrl-C mid-transfer).

export type FaultWhen = 'before' | 'after';

export interface FaultSpec {
  /** A method name, or '*' for every method call. */
  method: string;
  /** Answer this status (400 or above). */
  status?: number;
  message?: string;
  /** Wall ms to wait before the handler runs (the idempotency key is held meanwhile). */
  latencyMs?: number;
  /** Cut the connection halfway through the answer. */
  drop?: boolean;
  /** Read the body at most this many bytes a second (alone: no status, latency or drop with it). */
  bytesPerSecond?: number;
  /** Default: 'before' for status, 'after' for drop. */
  when?: FaultWhen;
  /** How many calls it applies to; default 1. */
  times?: number;
}

export interface Fault extends Required<Pick<FaultSpec, 'method' | 'times'>> {
  id: number;
  status: number | null;
  message: string | null;
  latencyMs: number;
  drop: boolean;
  bytesPerSecond: number | null;
  when: FaultWhen;
  /** Calls it applied to so far. */
  hits: number;
}

export function checkFaultSpec(spec: FaultSpec): string | null {
  if (typeof spec.method !== 'string' || spec.method === '' || spec.method.length > 100)
    return '`method` (a method name or "*") is required.';
  if (spec.message !== undefined && !(typeof spec.message === 'string' && spec.message.length <= 10_000))
    return '`message` must be text of at most 10000 characters.';
  if (spec.drop !== undefined && typeof spec.drop !== 'boolean') return '`drop` must be true or false.';
  if (spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 400 && spec.status <= 599)) {
    return '`status` must be a whole number from 400 to 599.';
  }
  if (
    spec.latencyMs !== undefined &&
    !(typeof spec.latencyMs === 'number' && spec.latencyMs >= 0 && spec.latencyMs <= 600_000)
  ) {
    return '`latencyMs` must be 0 to 600000.';
  }
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times >= 1 && spec.times <= 1_000_000))
    return '`times` must be a whole number from 1 to 1000000.';
  if (spec.when !== undefined && spec.when !== 'before' && spec.when !== 'after')
    return '`when` must be before or after.';
  if (spec.bytesPerSecond !== undefined) {
    if (!(Number.isInteger(spec.bytesPerSecond) && spec.bytesPerSecond >= 1 && spec.bytesPerSecond <= 1e12))
      return '`bytesPerSecond` must be a whole number from 1 to 1000000000000.';
    if (spec.status !== undefined || spec.latencyMs || spec.drop || spec.when !== undefined)
      return '`bytesPerSecond` is a fault of its own: give it without `status`, `latencyMs`, `drop` or `when`.';
  }
  if (spec.status === undefined && !spec.latencyMs && !spec.drop && spec.bytesPerSecond === undefined)
    return 'Give at least one of `status`, `latencyMs`, `drop`, `bytesPerSecond`.';
  return null;
}

export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      id: this.nextId++,
      method: spec.method,
      status: spec.status ?? null,
      message: spec.message ?? null,
      latencyMs: spec.latencyMs ?? 0,
      drop: Boolean(spec.drop),
      bytesPerSecond: spec.bytesPerSecond ?? null,
      when: spec.when ?? (spec.status === undefined && spec.drop ? 'after' : 'before'),
      times: spec.times ?? 1,
      hits: 0,
    };
    this.faults.push(fault);
    return fault;
  }

  /** The first live fault for this method (not a bandwidth fault), used up by one call. */
  take(method: string): Fault | undefined {
    return this.#take(method, false);
  }

  /** The first bandwidth fault for this method, used up by the call whose body it slows. */
  takeBandwidth(method: string): Fault | undefined {
    return this.#take(method, true);
  }

  #take(method: string, bandwidth: boolean): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    const i = this.faults.findIndex(
      (f) => (f.method === method || f.method === '*') && (f.bytesPerSecond !== null) === bandwidth,
    );
    if (i < 0) return undefined;
    const f = this.faults[i];
    f.hits++;
    if (f.hits >= f.times) this.faults.splice(i, 1);
    return { ...f };
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}
