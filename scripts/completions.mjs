// Regenerates completions/ from the command tree: `npm run completions` (builds first).
// test/completion/completion.test.ts fails when the committed scripts are out of date.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

const FILES = { bash: 'sitebuilder.bash', zsh: '_sitebuilder', fish: 'sitebuilder.fish' };
const root = new URL('..', import.meta.url);

execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
mkdirSync(new URL('completions/', root), { recursive: true });
for (const [shell, file] of Object.entries(FILES)) {
  const script = execFileSync(process.execPath, ['bin/sitebuilder.js', 'completion', shell, '--generate'], {
    cwd: root,
    encoding: 'utf8',
  });
  writeFileSync(new URL(`completions/${file}`, root), script);
  console.log(`completions/${file}`);
}
