import { defineCommand } from '../../core/define.js';
import { UsageError } from '../../errors.js';
import type { Shell } from '../../completion/render.js';

// The generators load only when this command runs (start-up stays light).
const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

export const completion = defineCommand({
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  description:
    'Print a completion script for bash, zsh or fish, generated from the command tree: commands, subcommands, aliases, flags, the values of enumerated flags, and the method names after `api`. The script answers without starting sitebuilder, so completing is instant.',
  exitCodes: '0 printed, 2 an unknown shell',
  learnMore: 'docs/guide.md#shell-completion',
  args: [{ name: 'shell', description: 'bash, zsh or fish', required: true, suggest: SHELLS }],
  options: [
    {
      flags: '--generate',
      description: 'render from the command tree instead of printing the shipped script (npm run completions)',
      hidden: true,
    },
  ],
  examples: [
    'sitebuilder completion bash > ~/.local/share/bash-completion/completions/sitebuilder',
    'sitebuilder completion zsh > "${fpath[1]}/_sitebuilder"',
    'sitebuilder completion fish > ~/.config/fish/completions/sitebuilder.fish',
    'source <(sitebuilder completion bash)   # for the current shell only',
  ],
  jsonFields: '{ shell, file (its name under completions/), script }',
  async run(opts, ctx, cli) {
    if (!(SHELLS as readonly string[]).includes(opts.shell)) {
      throw new UsageError(`Completion scripts exist for ${SHELLS.join(', ')}, not ${JSON.stringify(opts.shell)}.`);
    }
    const shell = opts.shell as Shell;
    const { COMPLETION_FILES, generateCompletion, shippedCompletion } = await import('../../completion/render.js');
    const script =
      (!opts.generate && (await shippedCompletion(shell))) || (await generateCompletion(shell, await cli.commands()));
    if (ctx.globals.json) {
      ctx.io.printJson({ shell, file: COMPLETION_FILES[shell], script });
      return;
    }
    ctx.io.out(script);
  },
});
