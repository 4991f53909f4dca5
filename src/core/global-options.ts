// The program's own options, plain data for the commander program (program.ts); the texts at the
// end of every --help are in help-after.ts, loaded only with the help's layout.
import type { FlagsOf, OptionDefinition } from './define.js';

declare const __SITEBUILDER_VERSION__: string;
export const VERSION = typeof __SITEBUILDER_VERSION__ === 'string' ? __SITEBUILDER_VERSION__ : '0.0.0-dev';

/** What `sitebuilder --help` says first (and the man page's description). */
export const PROGRAM_DESCRIPTION =
  'Build, change and publish sites with the AI site agent, from a terminal or a script.';

/** The program's version flag (commander's .version()); commander answers it. */
export const VERSION_FLAGS = '-v, --version';

export const GLOBAL_OPTIONS = [
  {
    flags: '--json',
    description: 'print one JSON document on stdout (NDJSON for followed runs); errors as JSON on stderr',
  },
  { flags: '-p, --profile <name>', description: 'use this saved profile' },
  { flags: '--base-url <url>', description: 'address of the service (or SITEBUILDER_BASE_URL)' },
  {
    flags: '--token <token>',
    description: 'token for this call (discouraged: it lands in shell history; use auth login or SITEBUILDER_TOKEN)',
  },
  {
    flags: '--debug',
    description: 'log each call (method, status, duration, request id, budget) on stderr; never the token',
  },
  { flags: '--no-color', description: 'no colour' },
  { flags: '--no-markdown', description: 'show the agent’s Markdown as it came, not rendered' },
  { flags: '-y, --yes', description: 'answer yes to confirmations (for scripts)' },
  { flags: '-q, --quiet', description: 'print only data and errors' },
] as const satisfies readonly OptionDefinition[];

/** The program's own flags as commander reads them; run.ts turns them into ctx.globals. */
export type GlobalFlags = FlagsOf<typeof GLOBAL_OPTIONS>;
