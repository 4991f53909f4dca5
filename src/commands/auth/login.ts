import { text } from 'node:stream/consumers';
import { checkBaseUrl } from '../../api/base-url.js';
import { type isEmulatorProfile, otherAddressForEmulator } from '../../config/profile-owner.js';
import { checkServiceAddress, type Context } from '../../context.js';
import { defineCommand } from '../../core/define.js';
import { ApiError, AuthError, CliError, ConfirmationNeededError, InterruptedError, UsageError } from '../../errors.js';
import { maskToken } from '../../io/mask.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import { readTokenInfo } from '../../service/token.js';

export const login = defineCommand({
  name: 'login',
  summary: 'Save a token for this profile, after checking it with the service',
  description:
    'Save a token (created in the dashboard under Tokens) for the profile in force, after checking it with GET /v1/token; it is stored in a 0600 file. The address is checked first, before the token is asked for. A token already saved is replaced only after a confirmation, or --yes. The emulator’s own profile takes no token for another address.\nOn a terminal the token is pasted at a masked prompt; in scripts pipe it to --with-token.',
  exitCodes: '0 saved, 1 no answer at the address, 2 usage, 4 token refused, 5 replacing needs --yes, 130 declined',
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
    // The address first, before anything is asked or read: a token pasted for nothing is lost time.
    const baseUrl = checkServiceAddress(ctx.baseUrl());
    checkBaseUrl(baseUrl);
    const profile = ctx.profileName();
    const saved = ctx.config.profile(profile);
    refuseOtherAddress(profile, saved, baseUrl);
    let token: string;
    if (opts.withToken) {
      token = (await text(ctx.io.stdin)).trim();
    } else {
      ctx.prompter.require('Logging in', 'pipe the token to `sitebuilder auth login --with-token`');
      await reach(ctx, baseUrl);
      if (saved.token) await confirmReplace(ctx, profile, saved.token, baseUrl);
      token = (await ctx.prompter.password('Paste your token')).trim();
    }
    if (!token) throw new UsageError('No token was given; paste the token created in the dashboard under Tokens.');
    if (/\s/.test(token)) throw new UsageError('A token has no spaces or line breaks; paste just the token.');
    // Piped: the person's word is --yes (a terminal was asked before the token).
    if (opts.withToken && saved.token && saved.token !== token && !ctx.globals.yes)
      throw new ConfirmationNeededError(
        `Profile ${profile} already holds another token (${maskToken(saved.token)}); pass --yes to replace it, or log in to another profile with --profile. Nothing was saved.`,
      );
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
    await ctx.config.updateProfile(profile, (p) => {
      // Another login may have saved meanwhile: what the person agreed to replace is what goes.
      if ((p.token ?? undefined) !== (saved.token ?? undefined) && p.token !== token)
        throw new CliError(`Profile ${profile} was changed meanwhile; nothing was saved. Run the login again.`);
      refuseOtherAddress(profile, p, baseUrl);
      return { ...p, token, baseUrl };
    });
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

/** The emulator's profile keeps the emulator's address: a token for another one goes to another profile. */
function refuseOtherAddress(profile: string, saved: Parameters<typeof isEmulatorProfile>[0], baseUrl: string): void {
  if (!otherAddressForEmulator(saved, baseUrl)) return;
  throw new UsageError(
    `Profile ${profile} is the one \`sitebuilder emulator --setup\` keeps for the local emulator (${saved?.baseUrl ?? 'no address'}); a token for ${baseUrl} is not saved there. Log in to another profile: \`${sb('auth login --profile default --base-url', baseUrl)}\`.`,
  );
}

/**
 * Reaches the service before the token is asked for: any answer of its own (a 401 without a
 * token) says the address is right; no answer stops here, with where the address came from.
 */
async function reach(ctx: Context, baseUrl: string): Promise<void> {
  try {
    await ctx.apiWith(undefined, baseUrl).get('/v1/token', ctx.signal);
  } catch (err) {
    if (err instanceof ApiError) return;
    if (err instanceof CliError && !(err instanceof InterruptedError))
      throw new CliError(`${err.message.replace(/\s*$/, '')} Nothing was asked or saved.`);
    throw err;
  }
}

async function confirmReplace(ctx: Context, profile: string, token: string, baseUrl: string): Promise<void> {
  if (ctx.globals.yes) return;
  const where = ctx.config.profile(profile).baseUrl ?? baseUrl;
  ctx.io.errLine(`Profile ${profile} already holds a token (${maskToken(token)}, for ${sanitizeInline(where)}).`);
  if (!(await ctx.prompter.confirm('Replace it?', false)))
    throw new InterruptedError('Cancelled; the saved token is left as it is.');
}
