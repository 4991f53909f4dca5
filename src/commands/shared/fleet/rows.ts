// The rows a batch prints on a terminal (report.ts): a site and its state or outcome with the
// elapsed time in shared columns, and the live summary, laid out for the terminal's width with
// no word or time cut.
import { displayWidth, padWidth } from '../../../io/width.js';

/** Where a site's row goes on: its address or run, and words that did not fit the line. */
export const ROW_INDENT = '    ';

/**
 * A state or an outcome and the elapsed time, in the columns every row shares (the word in 11,
 * the time in 6), unless the word is longer.
 */
export const timed = (word: string, elapsed: string): string =>
  displayWidth(word) <= 11 ? `${padWidth(word, 11)}${elapsed.padStart(6)}` : `${word} ${elapsed}`;

/**
 * A site under way in the live block: site, state and elapsed time in columns; where that is
 * wider than the terminal (a long id at 40 columns), site, elapsed time, then the state, which
 * the block cuts first: the id and the time stay whole.
 */
export function liveRow(site: string, state: string, elapsed: string, siteWidth: number, cols: number): string {
  const row = `  ${padWidth(site, siteWidth)}  ${timed(state, elapsed)}`;
  // The block keeps the terminal's last column free (io/live-block.ts).
  return displayWidth(row) < cols ? row : `  ${site} ${elapsed} ${state}`;
}

/**
 * The live summary, on as many rows as the terminal needs: each count ("4 under way") and the
 * elapsed time stay whole, never cut mid-word. The block keeps its last row two columns short
 * (io/live-block.ts), and every row one.
 */
export function summaryRows(head: string, parts: string[], elapsed: string, cols: number): string[] {
  const room = cols - 3;
  const rows: string[] = [];
  let row = head;
  const add = (sep: string, piece: string) => {
    if (displayWidth(row + sep + piece) <= room) row += sep + piece;
    else {
      rows.push(row);
      row = `  ${piece}`;
    }
  };
  for (const [i, p] of parts.entries()) add(i === 0 ? ' ' : ' · ', p);
  add('  ', elapsed);
  rows.push(row);
  return rows;
}
