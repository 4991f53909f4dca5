// Idempotency-Key records, per token: a repeat with the same method and body is answered
// from the stored result (not counted), another method or body → 422, a repeat while the
// first call still runs → 409. Records live for 24 emulated hours and are not saved to --state.
import { createHash } from 'node:crypto';
import type { EmulatorClock } from './clock.js';

const KEEP_MS = 24 * 3_600_000;

export interface StoredAnswer {
  status: number;
  body: Record<string, unknown>;
  requestId: string;
}

interface KeyRecord {
  method: string;
  fingerprint: string;
  createdAt: number;
  answer?: StoredAnswer;
}

export type KeyLookup =
  | { kind: 'new' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'mismatch' }
  | { kind: 'inFlight' };

/** A stable fingerprint of the arguments: key order does not matter. */
export function fingerprint(args: unknown): string {
  return createHash('sha256').update(canonical(args)).digest('base64url');
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export class IdempotencyStore {
  private records = new Map<string, KeyRecord>();

  constructor(private readonly clock: EmulatorClock) {}

  lookup(tokenId: string, key: string, method: string, print: string): KeyLookup {
    const id = `${tokenId}\n${key}`;
    const rec = this.records.get(id);
    if (!rec || this.clock.now() - rec.createdAt > KEEP_MS) return { kind: 'new' };
    if (rec.method !== method || rec.fingerprint !== print) return { kind: 'mismatch' };
    if (!rec.answer) return { kind: 'inFlight' };
    return { kind: 'replay', answer: rec.answer };
  }

  claim(tokenId: string, key: string, method: string, print: string): void {
    this.records.set(`${tokenId}\n${key}`, { method, fingerprint: print, createdAt: this.clock.now() });
  }

  complete(tokenId: string, key: string, answer: StoredAnswer): void {
    const rec = this.records.get(`${tokenId}\n${key}`);
    if (rec) rec.answer = answer;
  }

  /** Nothing took effect (a fault before the write, a crash): a retry with the key runs again. */
  release(tokenId: string, key: string): void {
    this.records.delete(`${tokenId}\n${key}`);
  }

  reset(): void {
    this.records.clear();
  }
}
