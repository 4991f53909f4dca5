// The arguments and flags of `publish <site>`, and the options run() gets from them: shared by
// the definition (publish.ts), the one-site form and the batch form (batch.ts), which loads only
// when several sites are named.
import {
  type ArgumentDefinition,
  type InferredOptions,
  type OptionDefinition,
  parseDuration,
} from '../../core/define.js';
import { FLEET_OPTIONS } from '../shared/fleet/options.js';
import { RECONNECT_FOR_OPTION } from '../shared/reconnect-option.js';

export const PUBLISH_ARGS = [
  {
    name: 'site',
    description: 'site id (default: `site use` or SITEBUILDER_SITE); `-` reads site ids from standard input',
  },
  { name: 'sites', description: 'more sites: all are published at once', variadic: true },
] as const satisfies readonly ArgumentDefinition[];

export const PUBLISH_OPTIONS = [
  { flags: '--wait', description: 'wait until the publish is live (the default)' },
  { flags: '--no-wait', description: 'return as soon as the publish has started' },
  {
    flags: '--timeout <duration>',
    description: 'stop waiting after this long (e.g. 90s, 5m; default 10m) and exit 8; the publish goes on',
    parse: parseDuration('--timeout'),
  },
  RECONNECT_FOR_OPTION,
  {
    flags: '--idempotency-key <key>',
    description:
      'key for publish_site (default: a new one; reuse it to retry a publish safely from a script); with several sites, each sends KEY-SITE',
  },
  ...FLEET_OPTIONS,
] as const satisfies readonly OptionDefinition[];

/** What run() of `publish` gets: `wait` is false with --no-wait, `sites` the sites after the first. */
export type PublishOptions = InferredOptions<typeof PUBLISH_ARGS, typeof PUBLISH_OPTIONS>;
