import { defineCommand } from '../../core/define.js';
import { list } from './list.js';

export const workspace = defineCommand({
  name: 'workspace',
  aliases: ['workspaces'],
  summary: 'List workspaces',
  learnMore: 'docs/guide.md#sites-and-workspaces',
  subcommands: [list],
});
