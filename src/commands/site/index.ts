import { defineCommand } from '../../core/define.js';
import { create } from './create.js';
import { list } from './list.js';
import { use } from './use.js';
import { view } from './view.js';

export const site = defineCommand({
  name: 'site',
  aliases: ['sites'],
  summary: 'List, create, view sites; set the default site',
  learnMore: 'docs/guide.md#sites-and-workspaces',
  subcommands: [list, create, use, view],
});
