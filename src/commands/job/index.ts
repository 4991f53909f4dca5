import { defineCommand } from '../../core/define.js';
import { cancel } from './cancel.js';
import { watch } from './watch.js';

export const job = defineCommand({
  name: 'job',
  aliases: ['jobs'],
  summary: 'Follow or stop agent runs',
  learnMore: 'docs/guide.md#jobs-history-and-the-queue',
  subcommands: [watch, cancel],
});
