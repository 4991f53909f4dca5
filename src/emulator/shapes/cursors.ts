// Numeric paging cursors for the alternate shapes. The domains page with opaque text cursors
// (bound to the listing's other arguments); this table hands each one out as a number and
// takes the number back, so the binding still holds. Numbers start at 101 and go up in the
// order pages are answered; the same text cursor always gets the same number. Like
// idempotency keys, the table lives in memory only (a cursor does not outlive a restart).
import { methodInfo } from '../../api/method-index.js';
import { refuse } from '../refusal.js';

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

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The answer's paging fields whose values are cursors: numbers in the alternate shapes. */
export const CURSOR_FIELDS = ['nextCursor', 'nextToken', 'oldestCursor'] as const;

/** The argument that carries a cursor back, by listing pattern. */
function cursorArgOf(method: string): string | undefined {
  const listing = methodInfo(method)?.listing;
  if (listing === 'nextCursor' || listing === 'backwards') return 'cursor';
  if (listing === 'token') return 'token';
  return undefined;
}

/**
 * Cursors handed out as numbers and taken back as numbers only (text is refused with 400, as a
 * typed argument of the service would be): the alternate shapes, and random seeds that draw them.
 */
export class NumericCursors {
  private readonly table = new CursorTable();

  /** The cursor argument as sent → the domain's text cursor. */
  incoming(method: string, args: Rec): Rec {
    const arg = cursorArgOf(method);
    if (!arg || args[arg] === undefined) return args;
    const value = args[arg];
    const answered = arg === 'token' ? 'nextToken' : method === 'list_messages' ? 'oldestCursor' : 'nextCursor';
    if (typeof value !== 'number')
      refuse(400, `\`${arg}\` must be a number: send back the ${answered} of the previous page as it came.`, {
        reason: 'invalid-argument',
        argument: arg,
      });
    const text = this.table.toText(value as number);
    if (text === undefined)
      refuse(
        400,
        `\`${arg}\` ${value} is not a ${arg} this method gave; send back the ${answered} of the previous page.`,
        {
          code: 'BAD_CURSOR',
        },
      );
    return { ...args, [arg]: text };
  }

  /** An answer's data with its cursors as numbers. */
  outgoing(data: unknown): unknown {
    if (!isRecord(data)) return data;
    const numbered: Rec = { ...data };
    for (const f of CURSOR_FIELDS)
      if (typeof data[f] === 'string') numbered[f] = this.table.toNumber(data[f] as string);
    return numbered;
  }
}
