// sitebuilder.1 is generated from the command tree (`npm run docs:commands`), as docs/commands.md
// is: this fails while the committed page says something else than the tree, and renders it with
// groff as `man` would.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Command, commandTree } from '../../scripts/commands-doc.js';
import { manPage, roff } from '../../scripts/man-page.js';

const ROOT = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  version: string;
  description: string;
  man?: string | string[];
  files: string[];
};
const committed = readFileSync(new URL('sitebuilder.1', ROOT), 'utf8');
const hasGroff = spawnSync('sh', ['-c', 'command -v groff']).status === 0;

/** Every command path of the tree ("site", "site list", …). */
async function paths(): Promise<string[]> {
  const out: string[] = [];
  const walk = (cs: readonly Command[], parent: string) => {
    for (const c of cs.filter((c) => !c.hidden)) {
      const path = parent ? `${parent} ${c.name}` : c.name;
      out.push(path);
      walk(c.subcommands ?? [], path);
    }
  };
  walk(await commandTree(), '');
  return out;
}

describe('the man page', () => {
  it('sitebuilder.1 is the one the command tree gives (run `npm run docs:commands`)', async () => {
    const generated = await manPage(pkg.version, pkg.description);
    expect(generated).toContain('.SS \\fBstorage\\-restore plan\\fR');
    expect(committed, 'sitebuilder.1 is out of date: run `npm run docs:commands`').toBe(generated);
  });

  it('ends every command, as its --help does, with its exit codes in one line and Learn more', async () => {
    const sections = new Map(
      committed
        .split('\n.SS ')
        .slice(1)
        .map((s) => [/^\\fB(.+?)\\fR/.exec(s)?.[1].replace(/\\-/g, '-') ?? '', s] as const),
    );
    const walk = (cs: readonly Command[], parent: string, noun?: Command): void => {
      for (const c of cs.filter((c) => !c.hidden)) {
        const path = parent ? `${parent} ${c.name}` : c.name;
        const text = (sections.get(path) ?? '').split('\n.SS ')[0] as string;
        expect(text, `a section for ${path}`).not.toBe('');
        const own = text.split('\n').filter((l) => /^(Exit codes|Learn more): /.test(l));
        // A noun that only holds verbs has no exit codes of its own; its verbs have theirs.
        if (c.exitCodes) expect(own[0], path).toBe(`Exit codes: ${roff(c.exitCodes)}.`);
        else expect(c.subcommands?.length, `${path} has exit codes in its help`).toBeGreaterThan(0);
        const learn = c.learnMore ?? noun?.learnMore;
        expect(learn, path).toMatch(/^docs\/\S+\.md#/);
        expect(own.at(-1), path).toBe(`Learn more: ${roff(learn as string)}.`);
        walk(c.subcommands ?? [], path, c);
      }
    };
    walk(await commandTree(), '');
  });

  it('is the package’s man page, and ships', () => {
    // An array: npm 11 links the page into <prefix>/share/man on a global install from an array, not from a string.
    expect(pkg.man).toEqual(['./sitebuilder.1']);
    expect(pkg.files).toContain('sitebuilder.1');
  });

  it('escapes what roff would read as its own', () => {
    expect(roff('--json')).toBe('\\-\\-json');
    expect(roff('C:\\dir')).toBe('C:\\edir');
    expect(roff(".hidden\n'quote")).toBe("\\&.hidden\n\\&'quote");
    expect(roff('the site’s … 🌍')).toBe('the site\\[u2019]s \\[u2026] \\[u1F30D]');
  });

  it.skipIf(!hasGroff)('renders with groff without a warning, every command in it, flags in ASCII', async () => {
    // `break`: a long example line cannot be broken inside .nf; it runs past the edge, as in any man page.
    const res = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-Wbreak', '-P-c', '-P-b', '-P-u'], {
      input: committed,
      encoding: 'utf8',
    });
    expect(res.status).toBe(0);
    expect(res.stderr).toBe('');
    const text = res.stdout;
    for (const path of await paths()) expect(text, path).toMatch(new RegExp(`^ {3}${path}$`, 'm'));
    expect(text).toContain('sitebuilder publish [options] [site]');
    expect(text).toMatch(/^ {7}--json print one JSON document/m);
    expect(text).toMatch(/^ {7}SITEBUILDER_TOKEN$/m);
    expect(text).toMatch(/^ {7}130 {4}interrupted by the user$/m);
    expect(text).toMatch(/^ {7}Exit codes: 0 live/m);
    expect(text).toMatch(/^ {7}Learn more: docs\/guide\.md#/m);
    // Nothing of the source leaks: no request, escape or font change printed as text.
    expect(text).not.toMatch(/^\s*\.[A-Za-z]{1,2}\b|\\f[BIR]|\\\[u/m);
    // Flags are ASCII, as typed: no hyphen or minus sign where a dash was written.
    expect(text).not.toMatch(/[\u2010\u2212]/);
  });
  // Where groff is missing, say why the rendering was not checked (.ci/run installs groff-base).
  it.skipIf(hasGroff)('renders with groff: skipped, groff is not installed (.ci/run installs groff-base)', () => {});
});
