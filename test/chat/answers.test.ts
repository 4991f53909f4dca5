// The question select: labels from the service are sanitized, the answer is the option as sent.
import { describe, expect, it } from 'vitest';
import { askQuestion } from '../../src/commands/chat/answers.js';
import type { Context } from '../../src/context.js';
import type { Choice } from '../../src/io/prompter.js';

describe('askQuestion', () => {
  it('shows sanitized labels and answers with the option as the service sent it', async () => {
    const shown: string[] = [];
    const prompter = {
      canPrompt: () => true,
      async select<T>(message: string, choices: Choice<T>[]): Promise<T> {
        shown.push(message, ...choices.map((c) => c.label));
        return choices[1].value;
      },
    };
    const next = await askQuestion({ prompter } as unknown as Context, {
      question: 'Which \u001b]52;c;aGk=\u0007one?',
      options: ['plain', 'red \u001b[31mbold'],
    });
    expect(shown).toEqual(['Which one?', 'plain', 'red bold', 'Other (type an answer)']);
    expect(next).toEqual({ prompt: 'red \u001b[31mbold', mode: 'build' });
  });
});
