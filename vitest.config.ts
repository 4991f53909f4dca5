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

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most files wait (on a CLI's polls, a terminal, a child process) more than they compute:
    // two run side by side even on two cores, where Vitest's default would be one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Tests never write to the real home directory.
    env: { SITEBUILDER_CONFIG_DIR: '/nonexistent-sitebuilder-config', NO_COLOR: '1', XDG_CACHE_HOME: cacheHome },
  },
});
