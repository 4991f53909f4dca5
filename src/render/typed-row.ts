// The row of the live block that shows what is typed during a run of a conversation (views.ts):
// it is kept, not sent, and shows at the prompt when the run ends. The row follows every key and
// fits the width: a long text shows its end, after an ellipsis.
import type { style } from '../io/style.js';
import { displayWidth } from '../io/width.js';

const LONG = 'Kept for your next message (not sent): ';
const SHORT = 'Kept, not sent: ';

/** The end of `text` that fits `width` columns, after … when cut. */
function tailOf(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const chars = [...text];
  let used = 1;
  let from = chars.length;
  while (from > 0 && used + displayWidth(chars[from - 1] as string) <= width)
    used += displayWidth(chars[--from] as string);
  return `…${chars.slice(from).join('').trimStart()}`;
}

/** The row for `text` at `width` columns; '' when nothing is typed. */
export function typedRow(text: string, width: number, c: ReturnType<typeof style>): string {
  if (text === '') return '';
  const label = width - LONG.length >= 16 ? LONG : SHORT;
  const room = Math.max(1, width - label.length - 2);
  return `${c.dim(label)}“${tailOf(text, room)}”`;
}
