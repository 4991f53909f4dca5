// No import loop in src/ (docs/architecture.md): every import counts, `import type`, `export … from`
// and `import()` included, since a loop of any kind ties the files to one another. TypeScript's
// own pre-processor finds the imports, so that no spelling of one is missed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript-5';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each file of src/ with the files of src/ it imports (`./x.js` is ./x.ts). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name).replace(/\.js$/, '.ts'))
      .filter((target) => target.endsWith('.ts'));
    graph.set(relative(SRC, file), [...new Set(targets.map((t) => relative(SRC, t)))]);
  }
  return graph;
}

/** One loop through each strongly connected group of files (Tarjan), as `a → b → a`. */
function importLoops(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group);
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups.map((group) => {
    // The shortest way back to the group's first file, found breadth first inside the group.
    const members = new Set(group);
    const [start] = [...group].sort();
    const from = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const next of graph.get(queue[i]) ?? []) {
        if (!members.has(next) || from.has(next)) continue;
        from.set(next, queue[i]);
        if (next === start) break;
        queue.push(next);
      }
      if (from.has(start)) break;
    }
    const path = [start];
    for (let at = from.get(start)!; at !== start; at = from.get(at)!) path.unshift(at);
    path.unshift(start);
    return `${path.join(' → ')}   (${group.length} file${group.length === 1 ? '' : 's'} in the loop: ${[...group].sort().join(', ')})`;
  });
}

describe('imports of src/', () => {
  it('are found whatever their kind', () => {
    const graph = importGraph();
    expect(graph.get('core/run.ts')).toContain('core/program.ts'); // import
    expect(graph.get('core/define.ts')).toContain('context.ts'); // import type
    expect(graph.get('cli.ts')).toContain('core/run.ts'); // export … from
    expect(graph.get('core/nouns.ts')).toContain('commands/site/index.ts'); // import()
  });

  it('are checked for loops of any length', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(importLoops(graph)).toEqual([
      'a → b → c → a   (3 files in the loop: a, b, c)',
      'e → e   (1 file in the loop: e)',
    ]);
  });

  it('make no loop', () => {
    expect(importLoops(importGraph())).toEqual([]);
  });
});
