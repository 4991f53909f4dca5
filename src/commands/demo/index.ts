// `sitebuilder demo` (hidden; what `npm start` runs): an in-process emulator with the demo
// data, and a short tour of the CLI pointed at it.
import { defineCommand } from '../../core/define.js';

export const demo = defineCommand({
  name: 'demo',
  hidden: true,
  summary: 'A tour of the CLI against an embedded emulator (what npm start runs)',
  exitCodes: '0 done',
  learnMore: 'docs/guide.md#trying-it-against-the-emulator',
  async run(_opts, ctx, cli) {
    const { runDemo } = await import('./tour.js');
    return runDemo(ctx, cli);
  },
});
