// The end-to-end journey of the shape fuzzer (issue 19, item 4): the example the docs give for
// scripts, run by a real shell with the built binary on PATH, against the default shapes and
// several seeds (needs `npm run build`):
//
//   LOGO=$(sitebuilder upload site_bakery logo.png) && sitebuilder chat site_bakery "Use $LOGO as the logo …"
//
// Against any seed, the script sends no write the default shapes would not (a stand-in address
// never becomes a prompt: with nothing to print, `upload` exits non-zero and `&&` stops), and
// no stack trace reaches the user. Cases that fail today are listed in AWAITS (it.fails).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Awaits, seeds } from './suite.js';
import { type Write, World } from './world.js';

const BIN = new URL('../../bin/sitebuilder.js', import.meta.url).pathname;
const SEEDS = seeds([13, 16, 31]);
const SCRIPT =
  'LOGO=$(sitebuilder upload site_bakery "$LOGO_FILE") && sitebuilder chat site_bakery "Use $LOGO as the logo on every page" --no-follow';

const AWAITS: Awaits = {};

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  writes: Write[];
}

/** The script in a real shell against a world's emulator, `sitebuilder` on PATH as after `npm install -g`. */
async function script(world: World): Promise<Ran> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-fuzz-sh-'));
  writeFileSync(join(dir, 'sitebuilder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'sitebuilder'), 0o755);
  const logo = join(dir, 'logo.png');
  writeFileSync(logo, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SITEBUILDER_')) env[k] = v;
  const since = world.seq();
  const child = spawn('sh', ['-c', SCRIPT], {
    env: { ...env, ...world.env(), PATH: `${dir}:${process.env.PATH}`, LOGO_FILE: logo },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  return { code, stdout, stderr, writes: world.writes(since) };
}

describe('upload script', () => {
  let def: Ran;
  beforeAll(async () => {
    const world = await World.start('default');
    def = await script(world);
    await world.close();
  });

  it('works against the default shapes: the address goes into the prompt', () => {
    expect(def.code, def.stderr).toBe(0);
    expect(def.writes.map((w) => w.method)).toEqual(['upload_storage_file', 'send_message']);
    expect(JSON.stringify(def.writes[1].args)).toContain('Use BASE/storage/site_bakery/logo.png as the logo');
  });

  for (const seed of SEEDS) {
    describe(`random:${seed}`, () => {
      let ran: Ran;
      beforeAll(async () => {
        const world = await World.start(`random:${seed}`);
        ran = await script(world);
        await world.close();
      });
      const replay = `random:${seed} (replay: SITEBUILDER_FUZZ_SEEDS=${seed} npx vitest run test/fuzz/script-e2e.test.ts)`;
      const why = AWAITS[`upload script | ${seed} | writes`];
      (why ? it.fails : it)(`writes${why ? ` (fails today: ${why})` : ''}`, () => {
        // The same writes, or the first of them (the chain stopped, and the script failed).
        const same = JSON.stringify(ran.writes) === JSON.stringify(def.writes);
        const stopped =
          JSON.stringify(ran.writes) === JSON.stringify(def.writes.slice(0, ran.writes.length)) && ran.code !== 0;
        expect(same || stopped, `${replay}: sent ${JSON.stringify(ran.writes)}; stderr: ${ran.stderr}`).toBe(true);
      });
      it('crashes', () => {
        expect(ran.stderr, replay).not.toMatch(/Unexpected error|^\s+at \S.*:\d+:\d+\)?$|TypeError|ReferenceError/m);
      });
    });
  }
});
