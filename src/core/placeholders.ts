// Placeholders are refused as values (docs/reliability.md): the commands sitebuilder prints
// are whole, or hold a placeholder to fill in (`--answer '…'`, `chat SITE 'Add a page'`,
// `--choose N`), and such a command pasted as it is sends nothing: exit 2, naming what to put in
// its place. What counts as one is only what this CLI prints or what a person copies from a
// usage line: `…` or `...`, `<anything>`, and a few upper-case words (`N`, `TEXT`, `JOB`,
// `SITE`, `ID`, any `…_ID`), each alone, with `…` after it at most.
import { UsageError } from '../errors.js';

const WORDS = /^(N|TEXT|MESSAGE|ANSWER|JOB|SITE|ID|FILE|PATH|URL|[A-Z]+(_[A-Z]+)*_ID)(…|\.\.\.)?$/;

/** Whether a value is a placeholder left unfilled, not a value. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  return /^(…|\.\.\.|<[^<>]+>)$/.test(v) || WORDS.test(v);
}

/** What goes in the place of the placeholder, by the option or argument that holds it. */
const FILL: Record<string, string> = {
  '--answer': 'your answer',
  '--revise': 'what should change in the plan',
  message: 'your message',
  site: 'a site id',
};

/**
 * Refuses a placeholder (exit 2) before anything is sent. `name` is the option (`--answer`) or
 * the argument (`message`); `spoken` says what it holds in words (`job id`).
 */
export function refusePlaceholder(name: string, value: string, spoken = name): void {
  if (!isPlaceholder(value)) return;
  const where = name.startsWith('-') ? `in ${name}` : `as the ${spoken}`;
  throw new UsageError(
    `${JSON.stringify(value.trim())} ${where} is a placeholder from a printed command: put ${FILL[name] ?? `the ${spoken}`} in its place. Nothing was sent.`,
  );
}
