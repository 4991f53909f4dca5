// The end of every --help, after the flags, in gh's shape (docs/CONTRIBUTING.md "Help texts"):
// the examples, the --json output, the exit codes in one line, the global options in one line and
// "Learn more:", the section of docs/ that holds the rest; and the program's Environment and Exit
// codes. Loaded with the help's layout (help-layout.ts), only where a help may print.
import { wrapText } from '../io/width.js';
import type { AnyCommandDefinition } from './define.js';
import type { Command } from 'commander';

export const EXIT_CODE_HELP = `Exit codes:
  0    done
  1    the service refused or failed (after retries), or the network did
  2    usage: bad flag, bad argument, client-side validation; nothing was sent
  4    authentication or permission: no token, 401, 403
  5    a confirmation or an answer is needed and no prompt is possible; nothing was changed
  6    the agent run failed
  7    rate limit or quota still exceeded after the allowed waiting
  8    still pending: --timeout reached, or detached from a run that goes on
  10   the run ended with an ask_user question waiting for an answer
  11   the run ended with a plan waiting for approval
  130  interrupted by the user`;

export const ENVIRONMENT_HELP = `Environment:
  SITEBUILDER_TOKEN       token (wins over the saved profile; --token wins over it)
  SITEBUILDER_BASE_URL    service address (else the profile's; auth login saves it)
  SITEBUILDER_PROFILE     profile to use
  SITEBUILDER_SITE        default site
  SITEBUILDER_CONFIG_DIR  where the config file lives (0600, in a 0700 directory)
  SITEBUILDER_DEBUG=1     like --debug
  SITEBUILDER_NO_MARKDOWN=1  like --no-markdown
  NO_COLOR, CLICOLOR=0, FORCE_COLOR, CLICOLOR_FORCE   colour policy`;

/**
 * The program's own options in one line, read from the program (a command's root), for a
 * command's help: the program's own help says what each does.
 */
function globalOptionsLine(command: Command): string {
  let root = command;
  while (root.parent) root = root.parent;
  const flags = root.options.filter((o) => !o.hidden).map((o) => o.flags.replace(', ', '/').replace(/ <[^>]*>$/, ''));
  return `Global options: ${flags.join(', ')} (\`sitebuilder --help\` says what each does)`;
}

/** Where the program's help points for the rest. */
const PROGRAM_LEARN_MORE = 'docs/guide.md (journey by journey), docs/commands.md (every command), docs/scripting.md';

/**
 * What follows the flags of `command` (`def`'s, a verb of `noun`) at `width`; `example` lays out
 * one example (help-layout.ts).
 */
export function commandAfter(
  def: AnyCommandDefinition,
  command: Command,
  width: number,
  example: (example: string, width: number) => string[],
  noun?: AnyCommandDefinition,
): string {
  // A verb without a section of its own points where its noun does.
  const learnMore = def.learnMore ?? noun?.learnMore;
  // An example wider than the width is continued with ` \` (help-layout.ts), never folded.
  const shown = (def.examples ?? []).flatMap((e) => example(e, width));
  // Record shapes ({"type":"end",state,…}) may break after their commas when wrapped.
  const json = def.jsonFields?.replace(/,(?=[^\s\d])/g, ', ');
  // Laid out already: a word wider than the width (a quoted string) is not wrapped again.
  const after = [
    ...(shown.length ? [`Examples:\n${shown.join('\n')}`] : []),
    ...(json ? [wrapText(`JSON output (--json):\n  ${json}`, width)] : []),
    [
      ...(def.exitCodes ? [wrapText(`Exit codes: ${def.exitCodes}`, width)] : []),
      // A noun that only holds verbs has no flags of its own to run with.
      ...(def.subcommands?.length && !def.run ? [] : [wrapText(globalOptionsLine(command), width)]),
      ...(learnMore ? [wrapText(`Learn more: ${learnMore}`, width)] : []),
    ].join('\n'),
  ].filter(Boolean);
  return `\n${after.join('\n\n')}`;
}

/** What follows the program's own help: its tables (laid out by `table`), and where the rest is. */
export function programAfter(width: number, table: (text: string, width: number) => string): string {
  return `\n${table(ENVIRONMENT_HELP, width)}\n\n${table(EXIT_CODE_HELP, width)}\n\n${wrapText(`Learn more: ${PROGRAM_LEARN_MORE}`, width)}\n`;
}
