#!/usr/bin/env node
'use strict';
// The launcher. CommonJS on purpose: `--version` and `--help` are answered from the texts the
// build wrote to dist/static.json, without starting the ESM loader or the CLI (start-up budget:
// 1.15 × bare Node). Everything else imports the bundle and sets the exit code.
const argv = process.argv.slice(2);

function fastAnswer() {
  const last = argv[argv.length - 1];
  const isVersion = argv.length === 1 && (last === '--version' || last === '-v');
  const isHelp = (last === '--help' || last === '-h') && argv.slice(0, -1).every((w) => /^[a-z][a-z0-9-]*$/.test(w));
  if (!isVersion && !isHelp) return false;
  let data;
  try {
    data = require('../dist/static.json');
  } catch {
    return false;
  }
  const text = isVersion ? `${data.version}\n` : data.help[argv.slice(0, -1).join(' ')];
  if (text === undefined) return false;
  process.stdout.write(text);
  return true;
}

if (!fastAnswer()) {
  import('../dist/cli.js').then(
    async ({ main }) => {
      process.exitCode = await main(argv);
    },
    (err) => {
      process.stderr.write(`sitebuilder could not start: ${err && err.message}. Run \`npm install\` to build it.\n`);
      process.exitCode = 1;
    },
  );
}
