// The publish noun: `publish <site>` itself, plus `publish status` and `publish logs`.
import { defineCommand } from '../../core/define.js';
import { publishLogsCommand } from './logs.js';
import { publishCommand } from './publish.js';
import { publishStatusCommand } from './status.js';

export const publish = defineCommand({
  ...publishCommand,
  subcommands: [publishStatusCommand, publishLogsCommand],
} as typeof publishCommand);
