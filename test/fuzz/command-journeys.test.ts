// The command journeys of the shape fuzzer (issue 19, item 4): cancel, upload, publish, history,
// queue and backup lists, each against the default shapes and several seeds of `--shapes
// random:SEED`, checked for the invariants of invariants.ts. Cases that fail today because of
// how the CLI reads the service are listed in AWAITS (it.fails; a fix turns them red, then the
// entry goes). A failing case prints its seed and the command that replays it.
import { JOURNEYS } from './journeys.js';
import { type Awaits, fuzzSuite, seeds } from './suite.js';

const SEEDS = seeds([3, 13, 16, 31]);
const COMMANDS = JOURNEYS.filter((j) => !/^(chat|plan|question)/.test(j.name));

const AWAITS: Awaits = {
  // awaits the service model (issue 19)
  'job cancel --job J on a run that just started | 3 | writes':
    'refused locally: the run reads `starting`, a state the reference does not list',
  // awaits the service model (issue 19)
  'job cancel --job J on a run that just started | 13 | writes':
    'refused locally: the run reads `initializing`, a state the reference does not list',
  // awaits the service model (issue 19)
  'upload, then the address in a message | 13 | writes':
    'the stand-in "logo.png (no address answered)" sent as a prompt',
  // awaits the service model (issue 19)
  'upload, then the address in a message | 13 | shown': 'a stand-in on stdout, exit 0',
  // awaits the service model (issue 19)
  'publish | 31 | shown': 'the nested address is said to be missing (exit 0), not unread',
  // awaits the service model (issue 19)
  'a message, then message list | 3 | shown': 'history text in another form printed as [object Object]',
  // awaits the service model (issue 19)
  'a message, then message list | 13 | shown': 'history text in another form printed as [object Object]',
  // awaits the service model (issue 19)
  'a message, then message list | 16 | shown': 'history text in another form printed as [object Object]',
  // awaits the service model (issue 19)
  'a message, then message list | 31 | shown': 'history text in another form printed as [object Object]',
  // awaits the service model (issue 19)
  'queue list and queue edit | 3 | shown': 'a queued prompt in another form printed as [object Object]',
};

fuzzSuite('test/fuzz/command-journeys.test.ts', COMMANDS, SEEDS, AWAITS);
