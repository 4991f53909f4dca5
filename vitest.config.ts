import { createHash } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The built binary's code cache goes to $XDG_CACHE_HOME/sitebuilder: for the tests, a directory
// of this checkout's own under the system's temporary directory, kept between runs.
const root = fileURLToPath(new URL('.', import.meta.url));
const cacheHome = join(
  tmpdir(),
  `sitebuilder-test-cache-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`,
);

// The emulator answers in one of two shapes where the service's reference says "not shown"
// (docs/emulator.md "Shapes"). SITEBUILDER_TEST_SHAPES picks the projects:
//   both (or unset)     every suite against the default shapes, and the command and
//                       end-to-end suites again against the alternate shapes (what `npm test` runs);
//   default             every suite against the default shapes only;
//   alternate           only the command and end-to-end suites, against the alternate shapes.
const which = process.env.SITEBUILDER_TEST_SHAPES || 'both';
if (!['default', 'both', 'alternate'].includes(which))
  throw new Error(`SITEBUILDER_TEST_SHAPES takes default, both or alternate, not ${JSON.stringify(which)}.`);

// Tests never write to the real home directory.
// The built binary's code cache goes to the suite's own cache home (above).
const env = { SITEBUILDER_CONFIG_DIR: '/nonexistent-sitebuilder-config', NO_COLOR: '1', XDG_CACHE_HOME: cacheHome };

/** The suites that drive the CLI against an emulator; only they run against both shapes. */
const AGAINST_BOTH = ['test/commands/**/*.test.ts', 'test/e2e/**/*.test.ts'];
/**
 * Among them, the ones no shape the variable picks can reach, run once: a second run would
 * repeat the same work against the same answers (docs/emulator.md "The test suites against
 * both shapes"). The shapes beyond these two are the shape fuzzer's (test/fuzz/).
 */
const DEFAULT_ONLY = [
  // README's Quick start as a newcomer types it (an emulator started as it starts by default).
  'test/e2e/quick-start-tty.test.ts',
  // Checks no answer's shape reaches: every help, the configuration file under concurrent
  // writers, signals and degenerate terminals, what the binary loads at start-up, `emulator
  // --setup`'s profile around a SIGINT, api's confirmation of a destructive method (from the
  // registry, before anything is sent; the answer printed as it came), and the client's retries
  // of a slow write (they read the status, `data.reason` and the key, which every shape states;
  // the rest of that file is a scripted server).
  'test/e2e/zod-build-time.test.ts',
  'test/e2e/help-tty.test.ts',
  'test/e2e/config-concurrency.test.ts',
  'test/e2e/terminal-signals.test.ts',
  'test/e2e/binary.test.ts',
  'test/e2e/emulator-setup-signal.test.ts',
  'test/e2e/api-destructive.test.ts',
  'test/commands/slow-write.test.ts',
  // The emulator started again, with its own default shapes by design, and the docs' examples,
  // which show the emulator's own shapes (what remains of them is parsing the docs).
  'test/e2e/restart-tty.test.ts',
  'test/e2e/runs-after-restart.test.ts',
  'test/e2e/docs-examples.test.ts',
  // Emulators started by `main(['emulator', …])` with an environment of the test's own, which
  // names no shapes: the default ones in either project.
  'test/commands/onboarding.test.ts',
  // No emulator: the answers are the test's own (a scripted server) or there are none.
  'test/commands/config-dir.test.ts',
  'test/commands/unread-answers.test.ts',
  'test/commands/echoed-token.test.ts',
  'test/commands/chat/answers.test.ts',
  'test/commands/chat/hostile-shapes.test.ts',
  'test/e2e/markdown-interrupt-tty.test.ts',
  // Units of a command's own modules, which start no emulator either.
  'test/commands/api/passthrough.test.ts',
  'test/commands/chat/shell-like.test.ts',
  'test/commands/doctor/readers.test.ts',
  'test/commands/fleet/report.test.ts',
  // Every emulator names its shapes (random:SEED), whatever the variable says.
  'test/commands/chat/random-seeds.test.ts',
  // The package as installed: its one call lists the seeded workspace, the same in every shape
  // (reading listings in the alternate shapes is test/commands/listing.test.ts's).
  'test/e2e/package.test.ts',
];

const projects = [
  which !== 'alternate' && {
    extends: true,
    test: { name: 'default', include: ['test/**/*.test.ts'], env: { ...env, SITEBUILDER_EMULATOR_SHAPES: 'default' } },
  },
  which !== 'default' && {
    extends: true,
    test: {
      name: 'alternate',
      include: AGAINST_BOTH,
      exclude: DEFAULT_ONLY,
      env: { ...env, SITEBUILDER_EMULATOR_SHAPES: 'alternate' },
    },
  },
].filter((p) => p !== false);

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest keeps each module's transform (TypeScript to JavaScript, its imports resolved) in
    // node_modules/.experimental-vitest-cache, keyed by the file's path and content, the Vite
    // config and this file, and emptied when the lockfile changes (`npm ci` starts it empty).
    // The second project reads what the first wrote, and a second run reads it all: without it
    // the main process transformed every module once a project, the larger part of its CPU
    // (docs/CONTRIBUTING.md "What the suite costs"). An edited file has a new key, so it is
    // never served an old transform. The key does not hold where an unchanged import resolves:
    // should a rename make `./x.js` find another file, `npx vitest --clearCache` empties it.
    // Vitest 5 has it on by default.
    experimental: { fsModuleCache: true },
    // One temporary directory for the run, removed at its end (test/helpers/run-temp-dir.ts).
    globalSetup: ['test/helpers/run-temp-dir.ts'],
    // Test files share their worker's modules (no fresh import of the CLI for each file: about a
    // third of the suite's time). So no test mocks a module (inject instead) and each puts back
    // what it changes in process.env.
    isolate: false,
    // Most files wait (on a CLI's polls, a terminal, a child process) more than they compute:
    // with one worker a core, half the machine's time was idle (2 cores: 151 s, 142 of 297
    // core-seconds idle). On 2 cores now: four workers 62 s, with the cores idle an eighth of
    // the run (several files that mostly wait side by side); five 59-60 s; six 60-64 s and 10 %
    // more CPU (each worker imports the code again). SITEBUILDER_TEST_WORKERS sets another
    // number (Vitest's --maxWorkers does not reach the projects: each takes this one).
    maxWorkers: Number(process.env.SITEBUILDER_TEST_WORKERS) || Math.min(8, Math.ceil(2.5 * availableParallelism())),
    projects,
  },
});
