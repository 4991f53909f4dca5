// `sitebuilder emulator`: the local emulator of the service, for trying commands and testing
// scripts offline. The emulator itself loads only when this command runs.
import { defineCommand } from '../../core/define.js';
import { parsePort, parseShapes, parseSpeed } from './flags.js';
import type { EmulatorOptions } from './serve.js';

export const emulator = defineCommand<EmulatorOptions>({
  name: 'emulator',
  summary: 'Run the local emulator of the service (offline tries and script tests)',
  description:
    'Run a stateful local emulator of the whole service on 127.0.0.1; it prints its address and demo tokens (full-scope first). With --setup, a profile of its own points at it while it runs, so that commands in any terminal reach it with nothing to export; it writes into no profile of yours, and puts back what it changed when it stops. With -- command, it runs the command against a fresh emulator (SITEBUILDER_BASE_URL and SITEBUILDER_TOKEN set) and exits with its exit code. The control API (tokens, credits, clock, faults, request log) lives under /_emulator/.',
  exitCodes:
    '0 stopped (Ctrl-C, SIGTERM); with -- command, the exit code of the command; 2 usage (a port or profile in use, or not its own: nothing started)',
  learnMore: 'docs/emulator.md#running-it, docs/guide.md#trying-it-against-the-emulator',
  args: [{ name: 'command', description: 'a command to run against the emulator (after --)', variadic: true }],
  options: [
    {
      flags: '--host <host>',
      description:
        'address to bind (anything but loopback exposes the demo tokens, and the control API then needs a secret: $SITEBUILDER_EMULATOR_SECRET, else one printed at start)',
      default: '127.0.0.1',
    },
    { flags: '--port <port>', description: 'port (0 picks a free one and prints it)', default: 0, parse: parsePort },
    {
      flags: '--state <file>',
      description: 'load the state from FILE at start (when it exists) and save it there on exit',
    },
    {
      flags: '--speed <n>',
      description:
        'emulated time runs n times faster (runs, publishes, the budget minute); default: $SITEBUILDER_EMULATOR_SPEED, else 1',
      parse: parseSpeed,
    },
    {
      flags: '--setup',
      description:
        'save a profile "emulator" (or --profile NAME) that points at this emulator with its full-scope demo token, current until the emulator stops',
    },
    {
      flags: '--shapes <name>',
      description:
        'answer with our choices where the service leaves them open (default), with other plausible ones (alternate: other field names, orders, numeric cursors, id forms), or with choices drawn from a seed (random:SEED, a shape fuzzer); default: $SITEBUILDER_EMULATOR_SHAPES, else default',
      parse: parseShapes,
    },
  ],
  examples: [
    'sitebuilder emulator --setup   # then, in another terminal: sitebuilder chat site_bakery "Add an about page"',
    'sitebuilder emulator',
    'sitebuilder emulator --port 8787 --state .emulator.json',
    'exec 3< <(sitebuilder emulator --json); read -r EMU <&3   # bash: the first line; the emulator runs on (kill $! stops it)',
    'sitebuilder emulator --speed 20 -- ./deploy.sh',
    'sitebuilder emulator --shapes alternate -- ./deploy.sh   # does the script survive another shape of the service?',
    'sitebuilder emulator --shapes random:7 -- ./deploy.sh    # or shapes drawn from seed 7 (the same seed replays them)',
  ],
  jsonFields:
    'one line: { baseUrl, shapes, tokens: [{ name, token, scopes, workspaces }], controlSecret? } with the full-scope token first (controlSecret: what the control API needs in X-Emulator-Secret, bound elsewhere than loopback); the emulator then keeps running ' +
    '(`| head -1` would never return: read the line and leave the pipe open, as in the example)',
  async run(opts, ctx) {
    const { serveEmulator } = await import('./serve.js');
    return serveEmulator(opts, ctx);
  },
});
