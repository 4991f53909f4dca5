import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Tests never write to the real home directory.
    env: { SITEBUILDER_CONFIG_DIR: '/nonexistent-sitebuilder-config', NO_COLOR: '1' },
  },
});
