// The flags of the batch forms of publish and chat (docs/scripting.md "Many sites at once"), and
// when a command line asks for one. Light: loaded with the definitions.
import { type FlagsOf, type OptionDefinition, parsePositiveInt } from '../../../core/define.js';
import { UsageError } from '../../../errors.js';

/**
 * How many sites are worked on at once by default: enough that the budget, not the waiting,
 * bounds a batch. A site takes at least a start and a read a poll floor later; at 240 calls a
 * minute (2 sites a second) with publishes of tens of seconds, fewer would leave budget unused.
 */
export const DEFAULT_CONCURRENCY = 100;

export const FLEET_OPTIONS = [
  { flags: '-w, --workspace <id>', description: 'with --all-sites: the workspace whose sites to work on' },
  { flags: '--all-sites', description: 'every site of --workspace (several sites at once)' },
  {
    flags: '--concurrency <n>',
    description: `with several sites: how many are worked on at once (default ${DEFAULT_CONCURRENCY}); the token's budget is shared whatever the number`,
    parse: parsePositiveInt('--concurrency'),
  },
  { flags: '--fail-fast', description: 'with several sites: start no more sites once one has failed' },
] as const satisfies readonly OptionDefinition[];

/** Flags of the batch forms, shared by publish and chat, as run() gets them. */
export type FleetFlags = FlagsOf<typeof FLEET_OPTIONS>;

/** Whether the command line asks for the batch form. */
export function isBatch(positionalSites: string[], o: FleetFlags): boolean {
  return Boolean(o.allSites || o.workspace !== undefined) || positionalSites.length > 1 || positionalSites[0] === '-';
}

/** The flags of the batch form given to a single site: a usage error naming them. */
export function refuseBatchFlags(o: FleetFlags): void {
  if (o.concurrency !== undefined || o.failFast)
    throw new UsageError(
      '--concurrency and --fail-fast go with several sites (several ids, -, or --workspace ID --all-sites).',
    );
}
