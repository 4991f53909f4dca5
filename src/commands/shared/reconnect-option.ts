// --reconnect-for, taken by every command that follows something to its end (chat, job watch,
// publish, storage-restore): how long a lost service is tried again (src/api/poll.ts Reconnect).
import { type OptionDefinition, parseDuration } from '../../core/define.js';

export const RECONNECT_FOR_OPTION = {
  flags: '--reconnect-for <duration>',
  description:
    'when the connection to the service is lost, keep trying this long (default 5m; 0: not at all), then exit 8',
  parse: parseDuration('--reconnect-for'),
} as const satisfies OptionDefinition;
