// The JSON reference of docs/scripting.md, generated from the command tree: every command that
// runs, with the jsonFields its --help shows. scripts/json-reference.mjs writes it there and
// test/scripts/json-reference.test.ts checks that no command is missing there.
import type { AnyCommandDefinition } from '../src/core/define.js';
import { loadCommands } from '../src/core/nouns.js';

export interface JsonReferenceRow {
  command: string;
  fields: string;
}

/** Commands that print no JSON (a shell script, an interactive tour). */
const NO_JSON = new Set(['completion', 'demo']);

export function jsonReferenceRows(defs: AnyCommandDefinition[], prefix = ''): JsonReferenceRow[] {
  const rows: JsonReferenceRow[] = [];
  for (const d of defs) {
    const path = prefix ? `${prefix} ${d.name}` : d.name;
    if (d.run) rows.push({ command: path, fields: d.jsonFields ?? (NO_JSON.has(path) ? '(prints no JSON)' : '') });
    if (d.subcommands) rows.push(...jsonReferenceRows(d.subcommands, path));
  }
  return rows;
}

export async function jsonReferenceTable(): Promise<string> {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = jsonReferenceRows(await loadCommands());
  return [
    '| command | `--json` prints |',
    '| --- | --- |',
    ...rows.map((r) => `| \`${r.command}\` | ${cell(r.fields)} |`),
  ].join('\n');
}
