import { defineCommand } from '../../core/define.js';
import { edit } from './edit.js';
import { list } from './list.js';
import { move } from './move.js';
import { remove } from './remove.js';
import { resume } from './resume.js';

export const queue = defineCommand({
  name: 'queue',
  summary: 'See and change the messages waiting for the agent',
  learnMore: 'docs/guide.md#jobs-history-and-the-queue',
  subcommands: [list, edit, move, remove, resume],
});
