// The arguments and flags of `chat`, and the options run() gets from them: shared by the
// definition (chat.ts) and the implementations it loads when it runs (run.ts, batch.ts).
import {
  type ArgumentDefinition,
  type InferredOptions,
  type OptionDefinition,
  parseDuration,
  parsePositiveInt,
} from '../../core/define.js';
import { isPlaceholder } from '../../core/placeholders.js';
import { FLEET_OPTIONS } from '../shared/fleet/options.js';
import { RECONNECT_FOR_OPTION } from '../shared/reconnect-option.js';

/** --choose holding a placeholder (`N`, `<n>`): never sent; run.ts refuses it (exit 2). */
export class ChoosePlaceholder {
  constructor(readonly typed: string) {}
}

/**
 * --choose N: a number. A placeholder is kept as such: run.ts reads the question back (reads
 * only) and refuses it, exit 2, listing the whole command of each answer.
 */
function parseChoice(value: string): number | ChoosePlaceholder {
  if (isPlaceholder(value)) return new ChoosePlaceholder(value.trim());
  return parsePositiveInt('--choose')(value);
}

export const CHAT_ARGS = [
  {
    name: 'site',
    description: 'the site (default: `site use` or SITEBUILDER_SITE); - reads site ids from standard input',
  },
  { name: 'message', description: 'what the agent should do (quote it); omit for a conversation' },
  { name: 'more', description: 'with several sites: more sites, then the message last', variadic: true },
] as const satisfies readonly ArgumentDefinition[];

export const CHAT_OPTIONS = [
  { flags: '--plan', description: 'plan mode: the agent writes a plan and changes no file until you approve it' },
  { flags: '-F, --message-file <file>', description: 'read the message from a file (- for standard input)' },
  { flags: '--answer <text>', description: 'answer the question the agent asked' },
  {
    flags: '--choose <n>',
    description: 'answer with the agent’s suggested answer number N',
    parse: parseChoice,
  },
  {
    flags: '--job <jobId>',
    description: 'the site’s latest run, as printed with its question or plan: nothing is sent unless it is',
  },
  { flags: '--approve', description: 'approve the plan the agent wrote, and build it' },
  { flags: '--revise <text>', description: 'ask for a revised plan' },
  { flags: '--no-follow', description: 'send and exit: print the job id, or the queue position' },
  {
    flags: '--timeout <duration>',
    description: 'stop following after this long (exit 8; the run goes on), e.g. 90s, 5m',
    parse: parseDuration('--timeout'),
  },
  RECONNECT_FOR_OPTION,
  {
    flags: '--idempotency-key <key>',
    description: 'key for send_message, so a retried script never sends twice; with several sites, each sends KEY-SITE',
  },
  ...FLEET_OPTIONS,
] as const satisfies readonly OptionDefinition[];

/** What run() of `chat` gets: `more` holds the arguments past the site and the message (several sites). */
export type ChatOptions = InferredOptions<typeof CHAT_ARGS, typeof CHAT_OPTIONS>;
