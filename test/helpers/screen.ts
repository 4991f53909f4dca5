// What a person sees fits the terminal: read from tmux with wrapped lines joined (capture-pane
// -J), a line wider than the pane is one the terminal had to fold, mid-word or mid-row.
import { expect } from 'vitest';
import { displayWidth } from '../../src/io/width.js';

/** The lines of the screen wider than `width` (the terminal folded them). */
export function foldedLines(screen: string, width: number): string[] {
  return screen.split('\n').filter((line) => displayWidth(line.trimEnd()) > width);
}

/**
 * What is never broken, so may be wider than the screen (the terminal folds it): a line that is
 * one command to copy (an example of --help: `$ …`, or one shell word of it alone on a line
 * it is continued on), or one word alone (an address, a DNS host name, an id).
 */
const WHOLE_LINE =
  /^\s*(\$ \S.*|sitebuilder \S.*|`sitebuilder [^`]*`[.,;:]?|\S+)\s*$|^ {6}(\S*"[^"]*"\S*|\S*'[^']*'\S*|\S+)( \\)?$/;

/**
 * Every line fits `width`, but a command or a word alone on its line, which is never broken;
 * and each of `words` and `commands` shows whole on one
 * line (a word our own wrapping broke would show as two pieces).
 */
export function expectFits(screen: string, width: number, opts: { words?: string[]; commands?: string[] } = {}): void {
  const folded = foldedLines(screen, width).filter((line) => !WHOLE_LINE.test(line));
  expect(folded, `lines wider than ${width} columns in:\n${screen}`).toEqual([]);
  for (const word of [...(opts.words ?? []), ...(opts.commands ?? [])])
    expect(screen, `"${word}" whole on the screen`).toContain(word);
}

/**
 * The examples of a help, each as the one command line it is: lines continued with ` \` joined
 * (src/core/help-layout.ts formatExample), comments left out.
 */
export function helpExamples(text: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current !== undefined) current += ` ${line.replace(/ \\$/, '')}`;
    else if (line.startsWith('$ ')) current = line.slice(2).replace(/ \\$/, '');
    else continue;
    if (!line.endsWith(' \\')) {
      out.push(current);
      current = undefined;
    }
  }
  return out.map((e) => e.replace(/ {2,}# .*$/, ''));
}

/** A help's words, whatever their order (an example's comment may move above it), without the continuations' backslashes. */
export const helpWords = (text: string): string[] =>
  text
    .split(/\s+/)
    .filter((w) => w && w !== '\\')
    .sort();
