// What a domain of the emulator is: a Domain module owns a slice of the state, handles some
// methods of the registry, and may add control routes and raw HTTP routes. What it may use of
// the emulator is EmulatorHost (src/emulator/host.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MethodName } from '../api/method-index.js';
import type { EmulatorHost, Handler } from './host.js';
import type { SiteRecord } from './state.js';

/**
 * A control route under /_emulator/; `path` is matched against the part after /_emulator/.
 * A domain's routes get the EmulatorHost; the core routes (control.ts) the whole Emulator.
 */
export interface ControlRoute<E extends EmulatorHost = EmulatorHost> {
  verb: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Segments, `:name` captures: 'sites/:siteId/code-hosting'. */
  path: string;
  run(req: ControlRequest<E>): unknown | Promise<unknown>;
}

export interface ControlRequest<E extends EmulatorHost = EmulatorHost> {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body as sent ({} when there is none); each route checks what it reads. */
  body: Record<string, unknown>;
  emu: E;
}

export interface Domain<S = unknown> {
  /** Key of its slice: emu.state.domains[name]. */
  name: string;
  /** A fresh, empty slice. */
  init(emu: EmulatorHost): S;
  /** Demo data for the seeded sites, once the slice is in place (core data is seeded already). */
  seed?(emu: EmulatorHost, slice: S): void;
  handlers?: Partial<Record<MethodName, Handler>>;
  /** After every slice exists (replace emu.jobs here, for example); runs again after a reset. */
  attach?(emu: EmulatorHost): void;
  /** After create_site (or the control API) added a site. */
  onSiteCreated?(emu: EmulatorHost, site: SiteRecord): void;
  /** Extra fields of the site record as methods answer it (a published address, for example). */
  siteFields?(emu: EmulatorHost, site: SiteRecord): Record<string, unknown>;
  control?: ControlRoute[];
  /** Raw HTTP outside /v1/ and /_emulator/ (a published site). Return true when answered. */
  http?(req: IncomingMessage, res: ServerResponse, url: URL, emu: EmulatorHost): boolean | Promise<boolean>;
}

export const defineDomain = <S>(domain: Domain<S>): Domain<S> => domain;
