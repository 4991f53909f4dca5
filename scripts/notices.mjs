// dist/THIRD-PARTY-NOTICES: the licence of every package whose code the build bundled into dist/
// (docs/CONTRIBUTING.md "The package"). The packages come from esbuild's metafile, so a package
// bundled tomorrow is listed without anyone remembering to; one without a licence file stops the
// build. test/e2e/package.test.ts checks the file against the bundle and node_modules.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;
const RULE = '='.repeat(78);

/** The directory of each package with code in the bundle (node_modules/a/node_modules/b → the inner b). */
export function bundledPackageDirs(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split('\\').join('/'));
    if (m) dirs.add(m[1]);
  }
  return [...dirs].sort();
}

/** The text of the notices for these package directories (relative to `root`). */
export function thirdPartyNotices(root, dirs) {
  const sections = dirs.map((dir) => {
    const abs = join(root, dir);
    const { name, version, license, repository } = JSON.parse(readFileSync(join(abs, 'package.json'), 'utf8'));
    const file = readdirSync(abs).find((f) => LICENCE_FILE.test(f));
    if (!file) throw new Error(`${dir}: bundled into dist/ but has no licence file to copy into THIRD-PARTY-NOTICES`);
    const url = typeof repository === 'string' ? repository : repository?.url;
    return [
      RULE,
      `${name} ${version} (${license ?? 'see below'})${url ? `\n${url}` : ''}`,
      RULE,
      '',
      readFileSync(join(abs, file), 'utf8').trim(),
      '',
    ].join('\n');
  });
  return [
    'sitebuilder bundles the code of the packages below into dist/. Their licences follow, each',
    'as the package ships it.',
    '',
    ...sections,
  ].join('\n');
}
