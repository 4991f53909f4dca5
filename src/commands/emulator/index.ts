// `sitebuilder emulator`: the local emulator of the service, for trying commands and testing
// scripts offline. The emulator itself loads only when this command runs.
import { defineCommand } from '../../core/define.js';
import { EMULATOR_ARGS, EMULATOR_OPTIONS } from './flags.js';

export const emulator = defineCommand({
  name: 'emulator',
  summary: 'Run the local emulator of the service (offline tries and script tests)',
  description:
    'Run a stateful local emulator of the whole service on 127.0.0.1; it prints its address and demo tokens (full-scope first). With --setup, a profile of its own points at it while it runs, so that commands in any terminal reach it with nothing to export; it writes into no profile of yours, and puts back what it changed when it stops. With -- command, it runs the command against a fresh emulator (SITEBUILDER_BASE_URL and SITEBUILDER_TOKEN set) and exits with its exit code. The control API (tokens, credits, clock, faults, request log) lives under /_emulator/.',
  exitCodes:
    '0 stopped (Ctrl-C, SIGTERM); with -- command, the exit code of the command; 2 usage (a port or profile in use, or not its own: nothing started)',
  learnMore: 'docs/emulator.md#running-it, docs/guide.md#trying-it-against-the-emulator',
  args: EMULATOR_ARGS,
  options: EMULATOR_OPTIONS,
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
