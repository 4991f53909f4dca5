import { defineCommand } from '../../core/define.js';
import { list } from './list.js';

export const message = defineCommand({
  name: 'message',
  aliases: ['messages'],
  summary: 'Read a site’s chat history',
  learnMore: 'docs/guide.md#jobs-history-and-the-queue',
  subcommands: [list],
});
