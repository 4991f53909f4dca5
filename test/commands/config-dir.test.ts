// A configuration directory that others can change is refused by the commands that save or read
// the token, with one sentence and exit 2; nothing is written there and its mode is left alone.
import { chmodSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';

function sharedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-shared-'));
  chmodSync(dir, 0o1777);
  return dir;
}

describe('a shared configuration directory', () => {
  it('`site use` saves nothing there and says what to do, exit 2', async () => {
    const dir = sharedDir();
    const res = await run(['site', 'use', 'site_bakery'], { configDir: dir });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      `error: The configuration directory ${dir} can be written by other users (mode 1777), so someone else could replace the saved token or its address; nothing was saved there. Use a private directory:`,
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('`site use --clear --json` gives the refusal as a JSON error document', async () => {
    const dir = sharedDir();
    const res = await run(['site', 'use', '--clear', '--json'], { configDir: dir });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const { error } = JSON.parse(res.stderr);
    expect(error).toMatchObject({ type: 'ConfigDirError', exitCode: 2 });
    expect(error.message).toContain('set SITEBUILDER_CONFIG_DIR to a new directory');
  });

  it('a config.json planted there is not read: its token is neither used nor shown', async () => {
    const dir = sharedDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { token: 'sbt_planted_secret', baseUrl: 'http://127.0.0.1:9' } } }),
    );
    const res = await run(['auth', 'status'], { configDir: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('nothing was read from it');
    expect(res.stdout + res.stderr).not.toContain('sbt_planted');
  });
});
