// A writer process for test/e2e/config-concurrency.test.ts (bundled with esbuild when the test
// starts, since Node runs no TypeScript). Two modes:
//   <dir> loop <profile>   saves site_1, site_2, … in <profile> over and over, printing each
//                          number once it is saved; killed -9 at any point by the test.
//   <dir> hold             takes config.json's lock, leaves half a temporary file as a write cut
//                          short would, prints "holding" and waits to be killed.
import { writeFileSync } from 'node:fs';
import { withFileLock } from '../../src/config/file-lock.js';
import { ensurePrivateDir } from '../../src/config/private-dir.js';
import { ConfigStore } from '../../src/config/store.js';

const [dir, mode, profile = 'loop'] = process.argv.slice(2);
const store = new ConfigStore(dir);

if (mode === 'loop') {
  for (let n = 1; ; n++) {
    await store.updateProfile(profile, (p) => ({ ...p, site: `site_${n}` }));
    process.stdout.write(`${n}\n`);
  }
} else if (mode === 'hold') {
  ensurePrivateDir(dir);
  await withFileLock(`${store.path}.lock`, async () => {
    writeFileSync(`${store.path}.tmp`, '{"profiles": {"cut": {"si');
    process.stdout.write('holding\n');
    await new Promise(() => {});
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}
