// Context = everything a command needs, built once, lazily (docs/architecture.md). Commands
// never import singletons: tests build a Context over buffers, a fake clock and a fake prompter.
import type { CallOptions, CallResult } from './api/call.js';
import { ApiClient } from './api/client.js';
import type { CallArgs } from './api/method-args.js';
import { findList } from './api/answer.js';
import type { Clock } from './clock.js';
import { rememberSiteIds, type SeenSite } from './config/site-ids.js';
import { type ConfigStore, DEFAULT_PROFILE, type ProfileData } from './config/store.js';
import { NotLoggedInError, UsageError } from './errors.js';
import { checkId, checkProfileName } from './input.js';
import type { IO } from './io/io.js';
import type { Prompter } from './io/prompter.js';
import { locate } from './service/read.js';
import { NEW_SITE, siteIdAndName } from './service/site-ids.js';
import type { Interrupts } from './interrupts.js';
import { flag, sb } from './io/shell.js';

/** Where no address is set: never sent to (checkServiceAddress); --base-url, SITEBUILDER_BASE_URL or a profile names one. */
export const DEFAULT_BASE_URL = 'https://api.sitebuilder.example';

/**
 * Refuses the placeholder address before anything is sent: it resolves nowhere, and a newcomer
 * would only meet "Could not resolve" after the retries. Says how to set one, or to try the emulator.
 */
export function checkServiceAddress(baseUrl: string): string {
  if (baseUrl !== DEFAULT_BASE_URL) return baseUrl;
  throw new UsageError(
    'No service address is set: pass --base-url URL (`sitebuilder auth login --base-url URL` saves it with the profile) or set SITEBUILDER_BASE_URL. To try sitebuilder offline, start the emulator with a profile that points at it: sitebuilder emulator --setup',
  );
}

// Where the address in force comes from: what `auth status` shows, and what a network failure or
// login names, so that the way to change it is plain.
export type AddressSource = 'flag' | 'env' | 'profile' | 'none';

/** Where the address in force comes from: --base-url, SITEBUILDER_BASE_URL, the profile, or nowhere. */
export function addressSource(ctx: Context): AddressSource {
  if (ctx.globals.baseUrl) return 'flag';
  if (ctx.env.SITEBUILDER_BASE_URL) return 'env';
  return ctx.profile().baseUrl ? 'profile' : 'none';
}

/** The same in words: "--base-url", "SITEBUILDER_BASE_URL", "profile work". */
export function addressOrigin(ctx: Context): string {
  const source = addressSource(ctx);
  if (source === 'flag') return '--base-url';
  if (source === 'env') return 'SITEBUILDER_BASE_URL';
  return source === 'profile' ? `profile ${ctx.profileName()}` : 'nowhere (none is set)';
}

export interface GlobalOptions {
  json: boolean;
  profile?: string;
  baseUrl?: string;
  token?: string;
  debug: boolean;
  color: boolean;
  yes: boolean;
  quiet: boolean;
}

export type TokenSource = 'flag' | 'env' | 'profile' | 'none';

export interface Context {
  io: IO;
  env: Record<string, string | undefined>;
  globals: GlobalOptions;
  config: ConfigStore;
  clock: Clock;
  prompter: Prompter;
  /** Aborted on the first Ctrl-C; commands that follow work decide what it means. */
  signal: AbortSignal;
  /** Ctrl-C presses, for commands that take them over (chat: cancel, then detach). */
  interrupts: Interrupts;
  profileName(): string;
  profile(): ProfileData;
  token(): { token?: string; source: TokenSource };
  baseUrl(): string;
  /** The client for the profile in force; throws NotLoggedInError when there is no token. */
  api(): ApiClient;
  /** A client that may run without a token (auth login checks a candidate token with it). */
  apiWith(token: string | undefined, baseUrl?: string): ApiClient;
  /** The site argument, or the default site (`site use`, SITEBUILDER_SITE). */
  site(arg: string | undefined): string;
  /** The default site as set (SITEBUILDER_SITE, else the profile's `site use`), unchecked; undefined when none. */
  defaultSite(): string | undefined;
  debug(line: string): void;
  /** This sitebuilder's version (ContextInit's, spread in). */
  version: string;
  /** Closes what the context opened (the keep-alive connection) and keeps the site ids seen. */
  close(): Promise<void>;
}

/** What a caller of run() may put into the context instead of the process's own (tests, the demo). */
export interface ContextOverrides {
  io?: IO;
  env?: Record<string, string | undefined>;
  clock?: Clock;
  prompter?: Prompter;
  signal?: AbortSignal;
  /** Ctrl-C presses, for tests (fire()) of commands that take them over. */
  interrupts?: Interrupts;
}

/** What a context is built from: its values, and the CLI's version for the client's User-Agent. */
export interface ContextInit
  extends Pick<Context, 'io' | 'env' | 'globals' | 'config' | 'clock' | 'prompter' | 'signal' | 'interrupts'> {
  version: string;
}

/** The token in force, to recognize it pasted as an id; none when the configuration cannot be read. */
export function tokenInForce(ctx: Context): string | undefined {
  try {
    return ctx.token().token;
  } catch {
    return undefined;
  }
}

const origin = (source: TokenSource) => (source === 'none' ? 'profile' : source);

/** Site ids noted in one command at most (site-ids.ts keeps 200 a profile). */
const SEEN_MAX = 500;

/**
 * The client, noting the sites its answers name (listings, a site just created) for the shell
 * completion of site ids (config/site-ids.ts): every command that lists sites keeps the ids.
 */
class SiteNotingClient extends ApiClient {
  constructor(
    options: ConstructorParameters<typeof ApiClient>[0],
    private readonly seen: SeenSite[],
  ) {
    super(options);
  }

  override call<const M extends string, T = unknown>(
    method: M,
    args: CallArgs<M>,
    options?: CallOptions,
  ): Promise<CallResult<T>>;
  override async call<T = unknown>(
    method: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<CallResult<T>> {
    const result = await super.call<string, T>(method, args, options);
    if (this.seen.length < SEEN_MAX) {
      const data = result.envelope.data;
      // Only noted, never checked here: an answer that holds no list is the command's to refuse.
      const listed = method === 'list_sites' ? findList(data) : [];
      const sites = Array.isArray(listed) ? listed : [];
      if (method === 'create_site') sites.push(locate(data, NEW_SITE)?.value ?? data);
      for (const raw of sites) {
        const site = siteIdAndName(raw);
        if (site.id) this.seen.push(site);
      }
    }
    return result;
  }
}

export function createContext(init: ContextInit): Context {
  const clients: ApiClient[] = [];
  let client: ApiClient | undefined;
  const seenSites: SeenSite[] = [];
  const ctx: Context = {
    ...init,
    profileName() {
      // `--profile ""` is a mistake, not a request for the default profile (core/check-input.ts refuses it first).
      const flag = init.globals.profile;
      if (flag !== undefined) return checkProfileName(flag, '--profile');
      return checkProfileName(init.config.resolveProfileName(undefined, init.env), 'The profile name');
    },
    profile: () => init.config.profile(ctx.profileName()),
    token() {
      if (init.globals.token) return { token: init.globals.token, source: 'flag' };
      if (init.env.SITEBUILDER_TOKEN) return { token: init.env.SITEBUILDER_TOKEN, source: 'env' };
      const saved = ctx.profile().token;
      return saved ? { token: saved, source: 'profile' } : { source: 'none' };
    },
    baseUrl: () => init.globals.baseUrl || init.env.SITEBUILDER_BASE_URL || ctx.profile().baseUrl || DEFAULT_BASE_URL,
    api() {
      if (client) return client;
      const { token } = ctx.token();
      if (!token) {
        const name = ctx.profileName();
        const known = Object.keys(init.config.read().profiles ?? {});
        if (!known.includes(name) && name !== DEFAULT_PROFILE) {
          throw new NotLoggedInError(
            `There is no profile "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : ''}; create it with \`${sb('auth login', flag('--profile', name))}\`.`,
          );
        }
        // No address at all is said before a missing token (exit 2): a token would not help (docs/guide.md).
        checkServiceAddress(ctx.baseUrl());
        throw new NotLoggedInError(
          `No token for profile "${name}". Run \`sitebuilder auth login\`, or set SITEBUILDER_TOKEN.`,
        );
      }
      client = ctx.apiWith(token);
      return client;
    },
    apiWith(token, baseUrl) {
      // Whatever echoes it (the service, our own sentences), it is printed masked (io/mask.ts).
      init.io.secrets.add(token);
      const c = new SiteNotingClient(
        {
          baseUrl: checkServiceAddress(baseUrl ?? ctx.baseUrl()),
          token,
          clock: init.clock,
          userAgent: `sitebuilder/${init.version} node/${process.versions.node}`,
          debug: init.globals.debug ? (line) => ctx.debug(line) : undefined,
          notice: (line) => init.io.info(line),
          tokenOrigin: origin(ctx.token().source),
          // The address given here is the one in force (auth login checks it before saving it).
          addressOrigin: addressOrigin(ctx),
        },
        seenSites,
      );
      clients.push(c);
      return c;
    },
    site(arg) {
      // An empty argument is a mistake (an unset shell variable), not a request for the default site.
      if (arg !== undefined) return checkId('The site id', arg, tokenInForce(ctx));
      const site = ctx.defaultSite();
      if (!site) {
        throw new UsageError(
          'Name a site (`sitebuilder site list` shows them), or set a default with `sitebuilder site use SITE`.',
        );
      }
      const from = init.env.SITEBUILDER_SITE ? 'SITEBUILDER_SITE' : 'The default site of the profile';
      return checkId(from, site, tokenInForce(ctx));
    },
    defaultSite() {
      return init.env.SITEBUILDER_SITE || ctx.profile().site || undefined;
    },
    debug(line) {
      if (init.globals.debug) init.io.errLine(`[debug] ${line}`);
    },
    async close() {
      for (const c of clients) c.close();
      // Kept per profile, so only when the token is a profile's (not SITEBUILDER_TOKEN's, nor --token's).
      try {
        if (seenSites.length && ctx.token().source === 'profile') {
          rememberSiteIds(init.config.dir, ctx.profileName(), seenSites);
        }
      } catch {
        // An unreadable configuration was already reported; the ids are kept another time.
      }
    },
  };
  return ctx;
}
