// The layout of --help at its width (80 columns, or a narrower terminal's): commander puts the
// text together, and every part of it is wrapped as all prose is (io/width.ts): at word
// boundaries, a command to copy whole. program.ts loads it only when a help may print.
import type { Command, Help, HelpConfiguration } from 'commander';
import { displayWidth, HANG, padWidth, wrapLine, wrapText } from '../io/width.js';
import type { AnyCommandDefinition } from './define.js';
import { commandAfter, programAfter } from './help-after.js';

/** Below this many columns beside the terms, descriptions go on the lines under their terms. */
const MIN_DESCRIPTION_WIDTH = 30;
/** Where a description under its term starts. */
const UNDER = 6;
/** Continuation lines of the usage start under its first word after "Usage: ". */
const USAGE_HANG = 'Usage: '.length;

/** Indents every line of the text that is not empty. */
const indent = (text: string, columns: number) => text.replace(/^(?=.)/gm, ' '.repeat(columns));

/**
 * A term (a flag, an argument, a command) and its description: beside the term in a column of
 * its own, wrapped within it; where that column would be too narrow, under the term, wrapped to
 * the width (a term wider than that wraps too). `termWidth`: the widest term of the help, which
 * every description clears (a wider one has its description under it).
 */
export function formatHelpItem(term: string, termWidth: number, description: string, width: number): string {
  const column = 2 + termWidth + 2;
  if (description && displayWidth(term) <= termWidth && width - column >= MIN_DESCRIPTION_WIDTH) {
    const [first, ...rest] = wrapText(description, width - column, 0).split('\n');
    return [`  ${padWidth(term, termWidth)}  ${first}`, ...rest.map((line) => indent(line, column))].join('\n');
  }
  const lines = wrapLine(`  ${term}`, width, HANG, { commands: false });
  if (description) lines.push(indent(wrapText(description, width - UNDER, 0), UNDER));
  return lines.join('\n');
}

/**
 * The usage line (`Usage: sitebuilder site list [options]`), wrapped under its start: a synopsis,
 * not a command to copy. A flag and its placeholder (`--workspace ID`) stay on one line.
 */
export function formatUsage(line: string, width: number): string {
  // Held together by a one-column mark that is not a space (no synopsis has it), put back after.
  const held = line.replace(/(--[a-z][a-z-]*) (?=[A-Z][A-Z_]*\b)/g, '$1\u2423');
  return wrapLine(held, width, USAGE_HANG, { commands: false }).join('\n').replaceAll('\u2423', ' ');
}

/**
 * A titled table of the help's own (the program's Environment and Exit codes): rows of a term, two
 * spaces or more, and a description, aligned where the first row's description starts. Laid out
 * as commander's items are; where there is room beside the terms, a row that fits stays as it is.
 */
export function formatHelpTable(text: string, width: number): string {
  const [title, ...rows] = text.split('\n');
  const cells = rows.map((row) => /^ {2}(\S.*?)( {2,})(\S.*)$/.exec(row));
  const first = cells[0];
  const termWidth = first ? first[1].length + first[2].length - 2 : 0;
  const aligned = width - (termWidth + 4) >= MIN_DESCRIPTION_WIDTH;
  const laid = rows.map((row, i) => {
    const cell = cells[i];
    if (!cell || (aligned && displayWidth(row) <= width)) return row;
    return formatHelpItem(cell[1], termWidth, cell[3], width);
  });
  return [title, ...laid].join('\n');
}

/** commander's help, each part wrapped to the help's width. */
const configuration: HelpConfiguration = {
  formatItem(this: Help, term: string, termWidth: number, description: string) {
    return formatHelpItem(term, termWidth, description, this.helpWidth ?? 80);
  },
  // The command's description (commander wraps nothing under 40 columns, and breaks commands).
  boxWrap: (text: string, width: number) => wrapText(text, width, 0),
  formatHelp(this: Help, cmd: Command, helper: Help) {
    // commander's own (this is a Help with the configuration on top).
    const own: Help = Object.getPrototypeOf(this);
    const [usage, ...rest] = own.formatHelp.call(this, cmd, helper).split('\n');
    return [formatUsage(usage, this.helpWidth ?? 80), ...rest].join('\n');
  },
};

/**
 * The spans of a shell command line between the spaces where it may be broken: not inside
 * quotes, nor inside $( ) or ( ) unless `inParens` (a $( ) too wide for a line); and a trailing
 * `# comment` (after a space, outside them).
 */
export function shellSpans(line: string, { inParens = false } = {}): { spans: string[]; comment?: string } {
  const spans: string[] = [];
  let quote: string | undefined;
  let depth = 0;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '\\') i++;
    else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if ((depth === 0 || inParens) && ch === ' ') {
      if (i > start) spans.push(line.slice(start, i));
      start = i + 1;
    } else if (depth === 0 && ch === '#' && i === start && spans.length > 0) {
      return { spans, comment: line.slice(i + 1).trim() };
    }
  }
  if (start < line.length) spans.push(line.slice(start));
  return { spans };
}

/**
 * An example (`  $ command  # comment`) at the width: as it is when it fits; otherwise its
 * comment on a line above it, and the command broken between words with ` \` at line ends, so
 * that copied it still runs as one. A word wider than the line stays whole.
 */
export function formatExample(example: string, width: number): string[] {
  const lead = '  $ ';
  if (displayWidth(lead + example) <= width) return [lead + example];
  const { spans: whole, comment } = shellSpans(example);
  // A span wider than a line ($( ) around a long command) is broken at its own spaces outside
  // quotes: ` \` continues a line inside $( ) as well.
  const spans = whole.flatMap((span) =>
    displayWidth(lead + span) > width ? shellSpans(span, { inParens: true }).spans : [span],
  );
  const lines = comment
    ? wrapText(`# ${comment}`, width - 2, 2)
        .split('\n')
        .map((l) => `  ${l}`)
    : [];
  const more = ' '.repeat(lead.length + 2);
  let line = '';
  let continued = false;
  for (const span of spans) {
    const next = line ? `${line} ${span}` : span;
    const head = continued ? more : lead;
    if (line && displayWidth(`${head}${next} \\`) > width) {
      lines.push(`${head}${line} \\`);
      continued = true;
      line = span;
    } else line = next;
  }
  lines.push(`${continued ? more : lead}${line}`);
  return lines;
}

/**
 * What program.ts lays the help out with: commander's configuration, and the text after a
 * command's flags and after the program's (help-after.ts).
 */
export const HELP_LAYOUT = {
  configuration,
  after: (def: AnyCommandDefinition, command: Command, width: number, noun?: AnyCommandDefinition) =>
    commandAfter(def, command, width, formatExample, noun),
  programAfter: (width: number) => programAfter(width, formatHelpTable),
};
export type HelpLayout = typeof HELP_LAYOUT;
