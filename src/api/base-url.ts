// Where the token may be sent (docs/scripting.md "How calls are made"): never in an address,
// and never over plain http:// to a host other than loopback. Checked before anything is sent.
import { UsageError } from '../errors.js';

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h.endsWith('.localhost');
}

/** Refuses before sending: a bad address, or the token over plain http to a non-loopback host. */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(
      `The base URL ${JSON.stringify(baseUrl)} is not a valid address; use for example https://api.example.com.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(
      `The base URL must start with https:// (or http:// for a loopback address), not ${url.protocol}//.`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(
      'The base URL must not carry credentials, a query or a fragment; the token goes in the Authorization header only.',
    );
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `Refusing to send the token over plain http:// to ${url.hostname}; use https://, or http:// only for a loopback address such as 127.0.0.1.`,
    );
  }
  return url;
}
