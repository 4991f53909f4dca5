// The command journeys of the shape fuzzer (issue 19, item 4): cancel, upload, publish, history,
// queue and backup lists, each against the default shapes and several seeds of `--shapes
// random:SEED`, checked for the invariants of invariants.ts. Cases that fail today because of
// how the CLI reads the service are listed in AWAITS (it.fails; a fix turns them red, then the
// entry goes). A failing case prints its seed and the command that replays it.
import { JOURNEYS } from './journeys.js';
import { type Awaits, fuzzSuite, seeds } from './suite.js';

const SEEDS = seeds([3, 13, 16, 31]);
const COMMANDS = JOURNEYS.filter((j) => !/^(chat|plan|question)/.test(j.name));

const AWAITS: Awaits = {};

fuzzSuite('test/fuzz/command-journeys.test.ts', COMMANDS, SEEDS, AWAITS);
