// Numeric paging cursors for the alternate shapes. The domains page with opaque text cursors
// (bound to the listing's other arguments); this table hands each one out as a number and
// takes the number back, so the binding still holds. Numbers start at 101 and go up in the
// order pages are answered; the same text cursor always gets the same number. Like
// idempotency keys, the table lives in memory only (a cursor does not outlive a restart).

const FIRST = 101;
/** Beyond this many cursors the oldest are forgotten (a client pages on with the newer ones). */
const MAX_CURSORS = 100_000;

export class CursorTable {
  private next = FIRST;
  private readonly byText = new Map<string, number>();
  private readonly byNumber = new Map<number, string>();

  /** The number that stands for a text cursor. */
  toNumber(text: string): number {
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    const n = this.next++;
    this.byText.set(text, n);
    this.byNumber.set(n, text);
    if (this.byNumber.size > MAX_CURSORS) {
      const [oldest, oldText] = this.byNumber.entries().next().value as [number, string];
      this.byNumber.delete(oldest);
      this.byText.delete(oldText);
    }
    return n;
  }

  /** The text cursor a number stands for, or undefined when this emulator never gave it. */
  toText(n: number): string | undefined {
    return this.byNumber.get(n);
  }
}
