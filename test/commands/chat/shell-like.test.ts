// Lines of a conversation that look meant for the shell or for the conversation itself are asked
// about before they become a paid run (src/commands/chat/shell-like.ts); messages are not.
import { describe, expect, it } from 'vitest';
import { looksLikeShell, oddLine, slashTypo } from '../../../src/commands/chat/shell-like.js';

const COMMANDS = ['/plan', '/queue', '/resume', '/cancel', '/reply', '/help', '/exit', '/quit'];

describe('a line meant for the shell', () => {
  it('is a shell command, a word that leaves a program, or a command with flags and paths', () => {
    for (const line of [
      'clear',
      'exit',
      'q',
      'quit',
      'ls',
      'cd ..',
      'ls -la',
      'cat index.html',
      'git status',
      'npm install',
      'npm run build',
      ':wq',
      'exit()',
      'sitebuilder publish site_bakery',
      'rm -rf dist/',
    ])
      expect(looksLikeShell(line), line).toBeDefined();
  });

  it('is not a message, even one that starts with a command word', () => {
    for (const line of [
      'Add an about page',
      'make the header blue',
      'open the menu page in a new tab',
      'find a nicer font for the titles',
      'Quit showing the banner on mobile',
      'clear the footer of old links',
      'cat pictures on the home page',
      'help me write the about page',
      'yes',
    ])
      expect(looksLikeShell(line), line).toBeUndefined();
  });
});

describe('a slash word', () => {
  it('mistyped: the command it is closest to', () => {
    expect(slashTypo('/exti', COMMANDS)).toBe('/exit');
    expect(slashTypo('/plna', COMMANDS)).toBe('/plan');
    expect(slashTypo('/quuee', COMMANDS)).toBe('/queue');
    expect(slashTypo('/deploy', COMMANDS)).toBeUndefined();
  });

  it('followed by words, or unknown, is asked about; a message with no slash word is not', () => {
    expect(oddLine('/plan Move the menu to its own page', COMMANDS)).toBe('/plan is a command that takes no words');
    expect(oddLine('/exti now', COMMANDS)).toBe('/exti is not a command (did you mean /exit?)');
    expect(oddLine('/about should have photos', COMMANDS)).toBe('/about is not a command');
    expect(oddLine('Add /about to the menu', COMMANDS)).toBeUndefined();
  });
});
