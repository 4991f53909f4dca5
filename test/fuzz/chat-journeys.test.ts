// The chat journeys of the shape fuzzer (issue 19, item 4), each against the default shapes and
// against several seeds of `--shapes random:SEED`, checked for the invariants of invariants.ts
// rather than for fixed outputs. Cases that fail today because of how the CLI reads the service
// are listed in AWAITS (run with it.fails, so the suite stays green and a fix turns them red:
// then the entry goes). A failing case prints its seed and the command that replays it.
import { JOURNEYS } from './journeys.js';
import { type Awaits, fuzzSuite, seeds } from './suite.js';

const SEEDS = seeds([3, 13, 16, 31]);
const CHAT = JOURNEYS.filter((j) => /^(chat|plan|question)/.test(j.name));

const TEXT_LOST = 'event text in another form is dropped without a word';
const APPROVED_AGAIN = 'history records unread, so runs.json and --job are believed: a second paid build';

const AWAITS: Awaits = {
  // awaits the service model (issue 19)
  'chat a message and follow it | 3 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'chat a message and follow it | 13 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'chat a message and follow it | 31 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'plan, then the printed --approve --job J | 3 | shown': `${TEXT_LOST} (an empty plan)`,
  // awaits the service model (issue 19)
  'plan, then the printed --approve --job J | 13 | shown': `${TEXT_LOST} (an empty plan)`,
  // awaits the service model (issue 19)
  'plan, then the printed --approve --job J | 31 | shown': `${TEXT_LOST} (an empty plan)`,
  // awaits the service model (issue 19)
  'plan, a teammate approves it, then the printed --approve --job J | 3 | writes': APPROVED_AGAIN,
  // awaits the service model (issue 19)
  'plan, a teammate approves it, then the printed --approve --job J | 16 | writes': APPROVED_AGAIN,
  // awaits the service model (issue 19)
  'plan, a teammate approves it, then the printed --approve --job J | 31 | writes': APPROVED_AGAIN,
  // awaits the service model (issue 19)
  'plan, a teammate approves it, then the printed --approve --job J | 3 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'plan, a teammate approves it, then the printed --approve --job J | 13 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'plan, a teammate approves it, then the printed --approve --job J | 31 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'question, then the printed --choose --job J | 3 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'question, then the printed --choose --job J | 13 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'question, then the printed --choose --job J | 31 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'question, then --answer --job J | 3 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'question, then --answer --job J | 13 | shown': TEXT_LOST,
  // awaits the service model (issue 19)
  'question, then --answer --job J | 31 | shown': TEXT_LOST,
};

fuzzSuite('test/fuzz/chat-journeys.test.ts', CHAT, SEEDS, AWAITS);
