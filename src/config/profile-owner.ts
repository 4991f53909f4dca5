// Whose a saved profile is, so that no token is overwritten without consent (docs/guide.md
// "Authentication and profiles"). `emulator --setup` marks the profile it creates
// (`"emulator": true` in config.json) and writes into no other; `auth login` writes into such a
// profile only a token for the address it already points at, and replaces any saved token only
// with the person's word (a confirmation, or --yes).
import type { ProfileData } from './store.js';

/** Saved by `emulator --setup`: the emulator's address and demo token, nothing of the person's. */
export function isEmulatorProfile(p: ProfileData | undefined): boolean {
  return p?.emulator === true;
}

/**
 * Whether `emulator --setup` may write into this profile: one it made (marked), one that holds
 * neither a token nor an address (nothing is lost), or one an earlier version made unmarked:
 * one of the emulator's own demo tokens at a loopback address (`local` says which are).
 */
export function emulatorMayTake(
  p: ProfileData | undefined,
  demoTokens: readonly string[],
  local: (baseUrl: string) => boolean,
): boolean {
  if (!p || isEmulatorProfile(p) || (!p.token && !p.baseUrl)) return true;
  return p.token !== undefined && demoTokens.includes(p.token) && (p.baseUrl === undefined || local(p.baseUrl));
}

const same = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** `auth login` would put into an emulator's profile a token for another address. */
export function otherAddressForEmulator(p: ProfileData | undefined, baseUrl: string): boolean {
  return isEmulatorProfile(p) && !(p?.baseUrl !== undefined && same(p.baseUrl, baseUrl));
}
