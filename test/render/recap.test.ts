// The recap of a run attached to (`job watch`): the last lines of the agent's text are cut where a
// Markdown block starts, so a plan whose code block is followed by prose never shows the prose as
// code (issue 21: "│ Nothing was changed yet … tell me what to cha" / "↳ nge.").
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { Splitter } from '../../src/render/markdown/split.js';
import { lastLines } from '../../src/render/recap.js';
import { applyAnswer, initialRunState } from '../../src/render/reducer.js';
import type { TranscriptLine } from '../../src/render/transcript.js';
import { createRunView } from '../../src/render/views.js';
import { readJobAnswer } from '../../src/service/job.js';
import { terminalIO } from '../helpers/terminal.js';

const PROSE = 'Nothing was changed yet. Approve the plan to build it, or tell me what to change.';
const CODE = ['<nav>', '  <a href="index.html">Home</a>', '  <a href="about.html">About</a>', '</nav>'];
const plan = (fence: string, code = CODE) =>
  [
    '## Here is my plan',
    '',
    "I'll change **Sunrise Bakery** in 2 steps; nothing is written until you approve.",
    '',
    '1. **Create `about.html`**: write the about page',
    '2. **Update `index.html`**: link the new page',
    '',
    'The navigation, as every page will have it:',
    '',
    `${fence}html`,
    ...code,
    fence,
    '',
    PROSE,
  ].join('\n');

const textLines = (text: string): TranscriptLine[] => text.split('\n').map((t) => ({ kind: 'text', text: t }));

/** Whether some shown line is read inside a fence (an unbalanced cut). */
function proseInFence(lines: TranscriptLine[]): boolean {
  const s = new Splitter();
  for (const l of lines) {
    if (l.kind !== 'text') continue;
    s.cutBefore(l.text);
    if (l.text === PROSE && s.inFence) return true;
  }
  return false;
}

describe('the last lines of the text', () => {
  it.each(['```', '~~~~'])('never start inside a fenced block (%s)', (fence) => {
    const shown = lastLines(textLines(plan(fence)), 3);
    expect(shown.at(-1)).toEqual({ kind: 'text', text: PROSE });
    expect(proseInFence(shown)).toBe(false);
    // The block that held the first of the last lines is shown from its fence.
    expect(shown[0]).toEqual({ kind: 'text', text: `${fence}html` });
  });

  it('go forward to the next block past a long code block', () => {
    const long = Array.from({ length: 40 }, (_, i) => `  <p>line ${i}</p>`);
    const shown = lastLines(textLines(plan('```', long)), 3);
    expect(shown).toEqual([{ kind: 'text', text: PROSE }]);
  });

  it('keep a text ended by another line apart from the next one', () => {
    const kept: TranscriptLine[] = [
      ...textLines('Intro paragraph.\n\n```css\nbody { color: red; }'),
      { kind: 'note', text: 'a step' },
      ...textLines('One.\nTwo.'),
    ];
    // The first text's block starts at its fence: shown from there, never from inside it.
    expect(lastLines(kept, 3).map((l) => (l.kind === 'text' ? l.text : ''))).toEqual([
      '```css',
      'body { color: red; }',
      'One.',
      'Two.',
    ]);
  });
});

/** `job watch` on a run whose plan ended: its answer read quietly, then the recap. */
function watch(io: ReturnType<typeof terminalIO>['io'], mode: 'pretty' | 'plain', text: string) {
  const view = createRunView(io, new FakeClock(), mode);
  return (async () => {
    await view.begin('site_docs', 'job_000011');
    const raw = { state: 'waiting_for_approval', events: [{ event: 'text', data: { text } }] };
    const applied = applyAnswer(initialRunState('job_000011'), readJobAnswer(raw));
    view.answer(applied, raw.events, { quiet: true });
    view.recap(applied.state);
    view.stop();
  })();
}

describe.each([80, 40])('the recap at %i columns', (columns) => {
  it('shows the prose after a code block as prose: whole words, nothing past the edge', async () => {
    const t = terminalIO({ columns });
    await watch(t.io, 'pretty', `${plan('```')}\n`);
    const lines = t
      .terminal()
      .lines()
      .map((l) => l.trimEnd());
    // The agent's text (after the summary, which wraps as our sentences do) stays off the last column.
    const text = lines.slice(lines.indexOf('(…)') + 1);
    expect(text.length).toBeGreaterThan(0);
    for (const l of text) expect(l.length).toBeLessThan(columns);
    const at = lines.findIndex((l) => l.startsWith('Nothing was changed'));
    expect(at, lines.join('\n')).toBeGreaterThan(0);
    const prose = lines.slice(at).filter((l) => l !== '');
    // Plain rows, no code gutter or continuation mark, and every word of the sentence whole.
    for (const l of prose) expect(l).not.toMatch(/^(│|↳)/);
    expect(prose.join(' ')).toBe(PROSE);
    // The code above it is code.
    expect(lines.some((l) => l.includes('<a href="about.html">About</a>'))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/^```/m);
  });
});

describe('raw text', () => {
  it.each([
    ['piped', 'plain' as const, true],
    ['--no-markdown', 'pretty' as const, false],
  ])('%s: the lines shown are the text exactly as sent', async (_name, mode, markdown) => {
    const t = terminalIO({ columns: 200 });
    t.io.markdown = markdown;
    await watch(t.io, mode, `${plan('```')}\n`);
    const out = mode === 'plain' ? t.bytes() : t.terminal().lines().join('\n');
    const tail = ['```html', ...CODE, '```', '', PROSE];
    const shown = out
      .split('\n')
      .map((l) => l.replace(/^text\t/, ''))
      .filter((l) => tail.includes(l) && l !== '');
    expect(shown).toEqual(tail.filter((l) => l !== ''));
  });
});
