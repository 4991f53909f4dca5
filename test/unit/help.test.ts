import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { helpTexts } from '../../src/cli.js';
import { run } from '../helpers/run.js';

describe('help', () => {
  const texts = helpTexts();

  it('ends the program help with the exit codes', () => {
    expect(texts['']).toContain('Exit codes:');
    expect(texts['']).toMatch(/130\s+interrupted by the user/);
  });

  it('answers --help in-process exactly as the texts bin/ prints without loading the CLI', async () => {
    for (const path of ['', 'site', 'site list', 'sites ls', 'auth login']) {
      const argv = path ? [...path.split(' '), '--help'] : ['--help'];
      const res = await run(argv);
      expect(res.code, path).toBe(0);
      expect(res.stdout, path).toBe(texts[path]);
    }
  });

  it('is what the build wrote to dist/static.json', () => {
    const data = JSON.parse(readFileSync(new URL('../../dist/static.json', import.meta.url), 'utf8'));
    expect(data.help).toEqual(texts);
    expect(data.version).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });

  it('shows examples and the global options in a verb’s help', () => {
    expect(texts['site create']).toContain('Examples:');
    expect(texts['site create']).toContain('--json');
  });
});
