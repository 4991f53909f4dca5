// The program's own options and the texts at the end of `sitebuilder --help`: plain data for the
// commander program (program.ts).
import type { OptionDefinition } from './define.js';

declare const __SITEBUILDER_VERSION__: string;
export const VERSION = typeof __SITEBUILDER_VERSION__ === 'string' ? __SITEBUILDER_VERSION__ : '0.0.0-dev';

/** What `sitebuilder --help` says first (and the man page's description). */
export const PROGRAM_DESCRIPTION =
  'Build, change and publish sites with the AI site agent, from a terminal or a script.';

/** The program's version flag (commander's .version()); commander answers it. */
export const VERSION_FLAGS = '-v, --version';

export const GLOBAL_OPTIONS: readonly OptionDefinition[] = [
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
];

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
  SITEBUILDER_BASE_URL    service address (default: the profile's, else the hosted service)
  SITEBUILDER_PROFILE     profile to use
  SITEBUILDER_SITE        default site
  SITEBUILDER_CONFIG_DIR  where the config file lives (0600, in a 0700 directory)
  SITEBUILDER_DEBUG=1     like --debug
  SITEBUILDER_NO_MARKDOWN=1  like --no-markdown
  NO_COLOR, CLICOLOR=0, FORCE_COLOR, CLICOLOR_FORCE   colour policy`;
