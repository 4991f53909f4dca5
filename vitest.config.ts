import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
    env: { SITEBUILDER_CONFIG_DIR: '/nonexistent-sitebuilder-config', NO_COLOR: '1' },
  },
});
