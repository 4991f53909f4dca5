// What a person sees fits the terminal: read from tmux with wrapped lines joined (capture-pane
// -J), a line wider than the pane is one the terminal had to fold, mid-word or mid-row.
import { expect } from 'vitest';
import { displayWidth } from '../../src/io/width.js';

/** The lines of the screen wider than `width` (the terminal folded them). */
export function foldedLines(screen: string, width: number): string[] {
  return screen.split('\n').filter((line) => displayWidth(line.trimEnd()) > width);
}

/** A line that is one command to copy (wrap.ts keeps it whole; the terminal may fold it). */
const COMMAND_LINE = /^\s*(\$ )?sitebuilder \S/;

/**
 * Every line fits `width`, but a command to copy, which is never broken (the terminal may fold
 * it when it is wider than the screen); and each of `words` and `commands` shows whole on one
 * line (a word our own wrapping broke would show as two pieces).
 */
export function expectFits(screen: string, width: number, opts: { words?: string[]; commands?: string[] } = {}): void {
  const folded = foldedLines(screen, width).filter((line) => !COMMAND_LINE.test(line));
  expect(folded, `lines wider than ${width} columns in:\n${screen}`).toEqual([]);
  for (const word of [...(opts.words ?? []), ...(opts.commands ?? [])])
    expect(screen, `"${word}" whole on the screen`).toContain(word);
}
