// Files within the house's limit (docs/CONTRIBUTING.md "File size"): 30 to 200 lines a file,
// and a file under src/ that passes 300 is split along a seam of its own, one concept a file.
// Data files may stay longer, each named here with the reason: splitting them would give one
// concept two homes. An exception that is no longer over the limit, or no longer there, fails
// too, so that the list says only what is true.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;
const LIMIT = 300;

/** The files allowed past the limit, and why (the same reasons as docs/CONTRIBUTING.md). */
const DATA_FILES: Record<string, string> = {
  'api/methods.ts':
    'the one method registry: an entry per method of the service, which the client, the emulator, the OpenAPI document and completion all follow',
  'api/method-index.json': 'generated from api/methods.ts by the build (docs/CONTRIBUTING.md "Generated files")',
  'emulator/shapes/alternate.ts':
    'the one table of the alternate shapes, a rule per record and per method, that reshapes every answer and that the shapes\' tests read (docs/emulator.md "Shapes")',
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Lines of text (`wc -l`'s count, and a last line without its newline). */
function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const sizes = new Map(files(SRC).map((f) => [relative(SRC, f), lineCount(readFileSync(f, 'utf8'))]));

describe('file sizes under src/', () => {
  it('counts lines of text, a last one without its newline too', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\n\nb\n')).toBe(3);
  });

  it(`keeps every file within ${LIMIT} lines, but the data files named`, () => {
    const over = [...sizes]
      .filter(([file, n]) => n > LIMIT && !(file in DATA_FILES))
      .map(([file, n]) => `src/${file}: ${n} lines; split it along a seam of its own (docs/CONTRIBUTING.md)`);
    expect(over).toEqual([]);
  });

  it('names only data files that are there and past the limit, each with its reason', () => {
    for (const [file, reason] of Object.entries(DATA_FILES)) {
      expect(sizes.has(file), `src/${file} is gone: drop it from DATA_FILES`).toBe(true);
      expect(sizes.get(file), `src/${file} is within the limit now: drop it from DATA_FILES`).toBeGreaterThan(LIMIT);
      expect(reason.length, `src/${file} needs its reason`).toBeGreaterThan(20);
    }
  });
});
