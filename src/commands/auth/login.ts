import { text } from 'node:stream/consumers';
import { checkServiceAddress } from '../../context.js';
import { defineCommand } from '../../core/define.js';
import { AuthError, UsageError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { readTokenInfo } from '../../service/token.js';

interface LoginOptions {
  withToken?: boolean;
}

export const login = defineCommand<LoginOptions>({
  name: 'login',
  summary: 'Save a token for this profile, after checking it with the service',
  description:
    'Save a token (created in the dashboard under Tokens) for the profile in force. The token is checked with GET /v1/token before it is saved, and stored in a 0600 file.\nOn a terminal the token is pasted at a masked prompt; in scripts pipe it to --with-token.',
  options: [{ flags: '--with-token', description: 'read the token from standard input' }],
  examples: [
    'sitebuilder auth login',
    'sitebuilder auth login --with-token < token.txt',
    'sitebuilder auth login --profile staging --base-url https://staging.example.com --with-token < staging.txt',
  ],
  jsonFields: '{ profile, baseUrl, name, scopes, workspaces, expiresAt }',
  async run(opts, ctx) {
    if (ctx.env.SITEBUILDER_TOKEN) {
      throw new UsageError(
        'SITEBUILDER_TOKEN is set and would win over a saved token; unset it first, then run `sitebuilder auth login` again.',
      );
    }
    const baseUrl = checkServiceAddress(ctx.baseUrl());
    let token: string;
    if (opts.withToken) {
      token = (await text(ctx.io.stdin)).trim();
    } else {
      ctx.prompter.require('Logging in', 'pipe the token to `sitebuilder auth login --with-token`');
      token = (await ctx.prompter.password('Paste your token')).trim();
    }
    if (!token) throw new UsageError('No token was given; paste the token created in the dashboard under Tokens.');
    if (/\s/.test(token)) throw new UsageError('A token has no spaces or line breaks; paste just the token.');
    const client = ctx.apiWith(token, baseUrl);
    let info: ReturnType<typeof readTokenInfo>;
    try {
      info = readTokenInfo((await client.get('/v1/token', ctx.signal)).envelope.data);
    } catch (err) {
      if (err instanceof AuthError) {
        throw err.withSentence(
          `The service did not accept this token (${err.serviceMessage || `HTTP ${err.status}`}); nothing was saved. Check that you copied all of it.`,
        );
      }
      throw err;
    }
    const profile = ctx.profileName();
    await ctx.config.updateProfile(profile, (p) => ({ ...p, token, baseUrl }));
    if (ctx.globals.json) {
      ctx.io.printJson({
        profile,
        baseUrl,
        name: info.name ?? null,
        scopes: info.scopes,
        workspaces: info.workspaces,
        expiresAt: info.expiresAt ?? null,
      });
      return;
    }
    const who = info.name ? ` as ${sanitizeInline(info.name)}` : '';
    ctx.io.info(`Logged in to ${baseUrl}${who} (profile ${profile}).`);
    if (info.scopes.length) ctx.io.info(`Scopes: ${info.scopes.map(sanitizeInline).join(', ')}`);
  },
});
