// docs/commands.md is generated from the command tree (`npm run docs:commands`): this fails
// while the committed file says something else than the tree.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandsReference } from '../../scripts/commands-doc.js';

describe('command reference', () => {
  it('docs/commands.md is the one the command tree gives (run `npm run docs:commands`)', async () => {
    const committed = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    const generated = await commandsReference();
    expect(generated).toContain('### storage-restore plan');
    expect(generated).toContain('`-m, --mode <mode>`');
    expect(committed, 'docs/commands.md is out of date: run `npm run docs:commands`').toBe(generated);
  });
});
