// The question select: labels from the service are sanitized, the answer is the option as sent.
import { describe, expect, it } from 'vitest';
import { askQuestion } from '../../../src/commands/shared/conversation/answers.js';
import type { Context } from '../../../src/context.js';
import type { Choice } from '../../../src/io/prompter.js';

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
    const next = await askQuestion(
      { prompter, io: { columns: 80, errLine: (l: string) => shown.push(l) } } as unknown as Context,
      {
        question: 'Which \u001b]52;c;aGk=\u0007one?',
        options: ['plain', 'red \u001b[31mbold'],
      },
    );
    expect(shown).toEqual(['Which one?', 'plain', 'red bold', 'Other (type an answer)']);
    expect(next).toEqual({ prompt: 'red \u001b[31mbold', mode: 'build' });
  });

  it('says a question wider than the terminal above the list, and cuts labels to one line', async () => {
    const shown: string[] = [];
    const prompter = {
      canPrompt: () => true,
      async select<T>(message: string, choices: Choice<T>[]): Promise<T> {
        shown.push(message, ...choices.map((c) => c.label));
        return choices[0].value;
      },
    };
    const long = 'x'.repeat(60);
    const next = await askQuestion(
      { prompter, io: { columns: 40, errLine: (l: string) => shown.push(l) } } as unknown as Context,
      {
        question: 'Which of these colour schemes should the footer use?',
        options: [long],
      },
    );
    expect(shown[0]).toBe('The agent asks: Which of these colour schemes should the footer use?');
    expect(shown[1]).toBe('Your answer');
    expect(shown[2].length).toBeLessThanOrEqual(36);
    expect(next).toEqual({ prompt: long, mode: 'build' });
  });
});
