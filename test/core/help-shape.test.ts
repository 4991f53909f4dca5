// Every command's --help in gh's shape (docs/CONTRIBUTING.md "Help texts"): at most ten lines of
// prose before the flags at 80 columns, then the flags, the examples, the exit codes in one
// line, and "Learn more:" naming the section of docs/ that holds the rest, which exists.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyCommandDefinition } from '../../src/core/define.js';
import { helpTexts } from '../../src/core/help-texts.js';
import { loadCommands } from '../../src/core/nouns.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PROSE_MAX = 10;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(resolve(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

/**
 * Every command of the tree with its path, aliases left out (their help is the same text); a
 * verb without a Learn more of its own takes its noun's.
 */
function walk(
  defs: AnyCommandDefinition[],
  parent = '',
  noun?: AnyCommandDefinition,
): Array<[string, AnyCommandDefinition]> {
  return defs.flatMap((d) => {
    const path = parent ? `${parent} ${d.name}` : d.name;
    const def = { ...d, learnMore: d.learnMore ?? noun?.learnMore } as AnyCommandDefinition;
    return [[path, def] as [string, AnyCommandDefinition], ...walk(d.subcommands ?? [], path, d)];
  });
}

describe('help in gh’s shape', async () => {
  const texts = helpTexts(await loadCommands(), 80);
  const commands = walk(await loadCommands()).filter(([, d]) => !d.hidden);

  it('covers every command', () => {
    expect(commands.length).toBeGreaterThan(40);
    for (const [path] of commands) expect(texts[path], path).toBeDefined();
  });

  it(`has at most ${PROSE_MAX} lines of prose before the flags at 80 columns`, () => {
    for (const path of ['', ...commands.map(([p]) => p)]) {
      const lines = texts[path].split('\n');
      // After the usage (and its continuation lines), up to the first section.
      let i = 1;
      while (/^ {7}\S/.test(lines[i] ?? '')) i++;
      const end = lines.findIndex((l, k) => k >= i && /^(Arguments|Options|Commands):$/.test(l));
      const prose = lines.slice(i, end < 0 ? undefined : end).filter((l) => l.trim());
      expect(prose.length, `sitebuilder ${path} --help:\n${prose.join('\n')}`).toBeLessThanOrEqual(PROSE_MAX);
    }
  });

  it('ends with the exit codes in one line (two at most at 80 columns), then Learn more', () => {
    for (const [path, def] of commands) {
      const text = texts[path];
      const tail = text.slice(text.lastIndexOf('\n\n') + 2).trimEnd();
      const parts = tail.split(/\n(?=\S)/);
      // The command's own flags and examples come first: the tail is after them.
      if (text.includes('\nExamples:\n')) expect(text.indexOf('\nExamples:\n')).toBeLessThan(text.indexOf(tail));
      expect(parts[parts.length - 1], path).toMatch(/^Learn more: /);
      if (!def.run) continue;
      const exits = parts.find((p) => p.startsWith('Exit codes: '));
      expect(exits, `sitebuilder ${path} --help names its exit codes`).toMatch(/^Exit codes: 0 /);
      expect(exits?.split('\n').length, `${path}: ${exits}`).toBeLessThanOrEqual(2);
      expect(def.exitCodes, path).not.toMatch(/\n/);
      expect(
        parts.some((p) => /^Global options: -v\/--version, --json,/.test(p)),
        path,
      ).toBe(true);
    }
  });

  it('points Learn more at sections of docs/ that exist', () => {
    const links = [...commands.map(([, d]) => d.learnMore ?? ''), 'docs/guide.md#fitting-the-terminal'];
    for (const [path, def] of commands) {
      expect(def.learnMore, `sitebuilder ${path}`).toMatch(/^docs\/\S+\.md#\S/);
      expect(texts[path], path).toContain(`Learn more: ${def.learnMore?.split(' ')[0]}`);
    }
    for (const link of links.flatMap((l) => l.split(', '))) {
      const [file, anchor] = link.split('#');
      expect(existsSync(resolve(ROOT, file)), link).toBe(true);
      expect([...anchorsOf(file)], link).toContain(anchor);
    }
    expect(texts['']).toMatch(/^Learn more: docs\/guide\.md /m);
  });
});
