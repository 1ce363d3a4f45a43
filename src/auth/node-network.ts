/**
 * The OAuth layer's network on Node, what `mcpkit/auth` uses there by default: host names
 * are resolved (by the system resolver unless the policy brings one), every address is
 * checked against the {@link NetworkPolicy}, and connections go only to checked addresses.
 * The check runs in the lookup undici connects through, so an answer that changes between
 * the first check and the connection (DNS rebinding) is checked again, never trusted.
 */
import type { Dispatcher } from 'undici';
import type { FetchFn, GuardedFetchOptions } from './client/guarded-fetch.js';
import { resolveChecked } from './client/network-policy.js';
import type { NetworkPolicy } from './client/network-policy.js';

/**
 * A resolver for `NetworkPolicy.resolveHost` on the system's resolver (`getaddrinfo`, as
 * connections use): every address a name resolves to is checked, so
 * `internal.example.com → 10.0.0.5` is refused like the address itself. `mcpkit/auth` on
 * Node uses it when the policy names no resolver.
 *
 * @example
 * ```ts
 * new OAuthClient({ serverUrl, interaction, network: { resolveHost: dnsResolver } });
 * ```
 */
export async function dnsResolver(hostname: string): Promise<string[]> {
  // Loaded with the first name resolved: importing mcpkit/auth on Node does not load it.
  const { lookup } = await import('node:dns/promises');
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

interface LookupAddress {
  address: string;
  family: number;
}

/** The `lookup` option of `net.connect` (written out: only node.ts-like files may import node:net). */
export type ConnectLookup = (
  hostname: string,
  options: { family?: number | string; all?: boolean },
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

const familyOf = (address: string): number => (address.includes(':') ? 6 : 4);

/**
 * A `lookup` for `net.connect` that resolves through the policy's resolver (default
 * {@link dnsResolver}), refuses the name when any address is not allowed (an `AuthError`
 * `UnsafeUrl`, before any socket connects), and hands the socket exactly the addresses it
 * checked.
 *
 * @example
 * ```ts
 * import { Agent } from 'undici';
 * const agent = new Agent({ connect: { lookup: checkedLookup({ allowLoopback: false }) } });
 * ```
 */
export function checkedLookup(policy: NetworkPolicy): ConnectLookup {
  const resolve = policy.resolveHost ?? dnsResolver;
  return (hostname, options, callback) => {
    const want =
      options.family === 4 || options.family === 'IPv4'
        ? 4
        : options.family === 6 || options.family === 'IPv6'
          ? 6
          : 0;
    resolveChecked(hostname, resolve, policy).then(
      (addresses) => {
        const list = addresses
          .map((a) => (a.startsWith('[') ? a.slice(1, -1) : a))
          .map((address) => ({ address, family: familyOf(address) }))
          .filter((a) => want === 0 || a.family === want);
        const first = list[0];
        if (!first) {
          const e = Object.assign(new Error(`${hostname} has no IPv${want} address`), { code: 'ENOTFOUND' });
          callback(e, '');
        } else if (options.all === true) callback(null, list);
        else callback(null, first.address, first.family);
      },
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), ''),
    );
  };
}

/**
 * A fetch whose connections go only to the addresses `policy` allows, checked when each
 * connection is opened ({@link checkedLookup} under an undici `Agent` of its own). undici
 * loads on the first request.
 *
 * @example
 * ```ts
 * const policy = { allowPrivateNetwork: false };
 * const response = await checkedFetch(policy)('https://auth.example.com/.well-known/oauth-authorization-server');
 * ```
 */
export function checkedFetch(policy: NetworkPolicy): FetchFn {
  let ready: Promise<{ fetch: typeof import('undici').fetch; dispatcher: Dispatcher }> | undefined;
  return async (input, init) => {
    const u = await (ready ??= import('undici').then(({ Agent, fetch }) => ({
      fetch,
      dispatcher: new Agent({ connect: { lookup: checkedLookup(policy) as never } }),
    })));
    const response = await u.fetch(input, { ...(init as object), dispatcher: u.dispatcher });
    return response as unknown as Response;
  };
}

/**
 * The options of a `GuardedFetch` as `mcpkit/auth` completes them on Node: the
 * policy resolves names (with {@link dnsResolver} unless it has a resolver), and, unless a
 * fetch is given, requests go through {@link checkedFetch}.
 */
export function nodeGuardOptions(options: GuardedFetchOptions): GuardedFetchOptions {
  const policy: NetworkPolicy = { ...options.policy, resolveHost: options.policy.resolveHost ?? dnsResolver };
  return { ...options, policy, fetch: options.fetch ?? checkedFetch(policy) };
}
