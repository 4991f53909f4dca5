// The live block's row for text typed during a run (src/render/typed-row.ts): it fits the width
// at every width, says the text is kept and not sent, and shows the text's end where the whole
// does not fit.
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../../src/io/io.js';
import { style } from '../../src/io/style.js';
import { displayWidth } from '../../src/io/width.js';
import { typedRow } from '../../src/render/typed-row.js';

const c = style(createTestIO({ tty: false }));

describe('the row of text typed during a run', () => {
  it('fits every width, keeps the end of the text, and says it is not sent', () => {
    const texts = ['add a footer', 'x'.repeat(300), 'ajoute une page « équipe » 字字字字字字字字字字 with 🍞 emoji'];
    for (const text of texts)
      for (let width = 20; width <= 120; width++) {
        const row = typedRow(text, width, c);
        expect(displayWidth(row), `${width}: ${row}`).toBeLessThanOrEqual(width);
        expect(row).toMatch(/^Kept(,| for your next message) \(?not sent\)?: “/);
        const shown = /“(.*)”$/.exec(row)?.[1] ?? '';
        if (shown.startsWith('…')) expect(text.endsWith(shown.slice(1))).toBe(true);
        else expect(shown).toBe(text);
      }
    expect(typedRow('add a footer', 79, c)).toBe('Kept for your next message (not sent): “add a footer”');
    expect(typedRow('add our opening hours to the footer', 39, c)).toBe('Kept, not sent: “…hours to the footer”');
  });

  it('is empty when nothing is typed', () => {
    expect(typedRow('', 79, c)).toBe('');
  });
});
