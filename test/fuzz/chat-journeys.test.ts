// The chat journeys of the shape fuzzer (issue 19, item 4), each against the default shapes and
// against several seeds of `--shapes random:SEED`, checked for the invariants of invariants.ts
// rather than for fixed outputs. Cases that fail today because of how the CLI reads the service
// are listed in AWAITS (run with it.fails, so the suite stays green and a fix turns them red:
// then the entry goes). A failing case prints its seed and the command that replays it.
import { JOURNEYS } from './journeys.js';
import { type Awaits, fuzzSuite, seeds } from './suite.js';

const SEEDS = seeds([3, 13, 16, 31]);
const CHAT = JOURNEYS.filter((j) => /^(chat|plan|question)/.test(j.name));

const AWAITS: Awaits = {};

fuzzSuite('test/fuzz/chat-journeys.test.ts', CHAT, SEEDS, AWAITS);
