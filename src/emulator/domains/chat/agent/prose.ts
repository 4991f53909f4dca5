// What the scripted agent writes, in Markdown, as a model does (docs/emulator.md "What the agent
// writes"): a plan with a heading, numbered steps with bold file names, `code` and nested
// bullets, a table of the files when there are two or more, and a code block (the CSS of a
// restyle, else the HTML of the navigation when pages are added, its lines ending with CRLF as
// a snippet pasted from Windows would); build narration in short paragraphs and bullets with a
// link. Deterministic: the same brief gives the same text.
import type { Brief } from './brief.js';
import { pageTitle } from './site-files.js';

export interface PlannedFile {
  path: string;
  op: 'added' | 'changed' | 'deleted';
  todo: string;
}

const VERB = { added: 'Create', changed: 'Update', deleted: 'Remove' } as const;

function details(f: PlannedFile, brief: Brief, pages: string[]): string[] {
  if (f.op === 'deleted') return ['its link goes from the navigation of every page'];
  if (f.path === 'index.html')
    return [
      `a hero with the title **${brief.title}** and the tagline`,
      pages.length ? `links to ${pages.map((p) => `\`${p}.html\``).join(', ')} in the navigation` : 'no other page yet',
    ];
  if (f.path === 'styles.css')
    return [
      `the accent colour \`${brief.color?.hex ?? '#d35400'}\`${brief.color ? ` (${brief.color.name})` : ''}`,
      brief.dark ? 'a *dark* background, light text' : 'a *light* background, dark text',
    ];
  return [`a heading and a first paragraph for **${pageTitle(f.path.replace(/\.html$/, ''))}**`];
}

/** The plan, in Markdown: heading, steps, a table of the files, a code block; CRLF inside the block. */
export function planText(brief: Brief, files: PlannedFile[], revised: boolean, revision?: string): string {
  const pages = brief.pages;
  const out: string[] = [`## ${revised ? 'Here is the revised plan' : 'Here is my plan'}`, ''];
  out.push(
    `I'll change **${brief.title}** (a ${brief.kind}) in ${files.length} step${files.length === 1 ? '' : 's'}; nothing is written until you approve.`,
    '',
  );
  files.forEach((f, i) => {
    out.push(`${i + 1}. **${VERB[f.op]} \`${f.path}\`**: ${f.todo.toLowerCase()}`);
    for (const d of details(f, brief, pages)) out.push(`   - ${d}`);
  });
  if (revision) out.push(`${files.length + 1}. Take into account: “${revision}”`);
  if (files.length >= 2) {
    out.push('', '| File | Change | Task |', '| --- | --- | --- |');
    for (const f of files) out.push(`| \`${f.path}\` | ${f.op} | ${f.todo} |`);
  }
  const block = codeBlock(brief, files);
  if (block) out.push('', block);
  out.push('', 'Nothing was changed yet. Approve the plan to build it, or tell me what to change.');
  return `${out.join('\n')}\n`;
}

function codeBlock(brief: Brief, files: PlannedFile[]): string | undefined {
  if (brief.restyle && files.some((f) => f.path === 'styles.css'))
    return [
      'The colours, as `styles.css` will start:',
      '',
      '```css',
      ':root {',
      `  --accent: ${brief.color?.hex ?? '#d35400'};`,
      `  --bg: ${brief.dark ? '#15171c' : '#fffdf8'};`,
      '}',
      '```',
    ].join('\n');
  const added = files.filter((f) => f.op === 'added' && f.path !== 'index.html' && f.path !== 'styles.css');
  if (added.length === 0) return undefined;
  const links = [
    '<a href="index.html">Home</a>',
    ...added.map((f) => `<a href="${f.path}">${pageTitle(f.path.replace(/\.html$/, ''))}</a>`),
  ];
  // Pasted from a file with Windows line ends: CRLF inside the block.
  return [
    'The navigation every page will share:',
    '',
    '```html',
    '<nav>',
    ...links.map((l) => `  ${l}`),
    '</nav>',
    '```',
  ].join('\r\n');
}

/** The opening of a build: one sentence (kept as it was), then what it will write, as bullets. */
export function buildOpening(first: string, files: PlannedFile[]): string {
  const written = files.filter((f) => f.op !== 'deleted').map((f) => `\`${f.path}\``);
  const removed = files.filter((f) => f.op === 'deleted').map((f) => `\`${f.path}\``);
  const lines = [first, ''];
  if (written.length) lines.push(`- **write** ${written.join(', ')}`);
  if (removed.length) lines.push(`- **remove** ${removed.join(', ')}`);
  return `${lines.join('\n')}\n\n`;
}

/** The closing of a build: the sentence it always said, then a short note with a link. */
export function buildClosing(done: string): string {
  return `${done}\n\nThe navigation follows [MDN's advice on the \`<nav>\` element](https://developer.mozilla.org/en-US/docs/Web/HTML/Reference/Elements/nav); every page links to every other.\n`;
}
