/**
 * Where the OAuth layer may send requests and which URLs it may hand to a browser. A
 * malicious MCP server controls every URL of the discovery chain (`resource_metadata`,
 * `authorization_servers`, every endpoint in the metadata), so each one is checked before
 * anything is sent: https only, no private, link-local or loopback addresses unless allowed.
 *
 * Addresses are classified on the WHATWG URL parser's canonical host, which already turns
 * the encoding tricks (octal, hex and integer IPv4, IPv4-mapped IPv6) into one form.
 */
import { AuthError } from '../errors.js';

/** What the OAuth layer may reach. Everything is refused unless it is public https. */
export interface NetworkPolicy {
  /**
   * Allow loopback hosts (`localhost`, 127.0.0.0/8, `::1`), over http as well as https.
   * Default: allowed only when the MCP server itself is on loopback, so a remote server can
   * never point the client at local services.
   */
  allowLoopback?: boolean;
  /** Allow private, link-local, CGNAT and other non-public addresses and internal names (default false). */
  allowPrivateNetwork?: boolean;
  /** Allow plain http to hosts that are not loopback (default false; tests only). */
  allowHttp?: boolean;
  /**
   * Resolves a host name to its addresses so that names pointing inside are refused too:
   * every address must be allowed. On Node, `mcpkit/auth` resolves with the system resolver
   * when this is not set, and connects only to addresses it checked (when the connection is
   * opened, so a DNS answer that changes after the first check is checked again). Browsers
   * cannot resolve names: there, without this, only the URL's host itself is checked.
   */
  resolveHost?: (hostname: string) => Promise<readonly string[]>;
}

/** How far from the public internet an address is. */
export type AddressKind = 'public' | 'loopback' | 'private';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseIPv4(text: string): number[] | undefined {
  const m = IPV4.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((n) => n <= 255) ? parts : undefined;
}

/** Private and reserved IPv4 blocks as [first octets, prefix length]. */
const V4_PRIVATE: ReadonlyArray<readonly [number, number, number]> = [
  [0x00000000, 8, 0], // "this network", 0.0.0.0 reaches local services
  [0x0a000000, 8, 0], // 10/8
  [0x64400000, 10, 0], // 100.64/10 CGNAT
  [0xa9fe0000, 16, 0], // 169.254/16 link-local, cloud metadata
  [0xac100000, 12, 0], // 172.16/12
  [0xc0000000, 24, 0], // 192.0.0/24
  [0xc0000200, 24, 0], // 192.0.2/24 TEST-NET-1
  [0xc0586300, 24, 0], // 192.88.99/24 6to4 relay
  [0xc0a80000, 16, 0], // 192.168/16
  [0xc6120000, 15, 0], // 198.18/15 benchmarking
  [0xc6336400, 24, 0], // 198.51.100/24 TEST-NET-2
  [0xcb007100, 24, 0], // 203.0.113/24 TEST-NET-3
  [0xe0000000, 4, 0], // multicast
  [0xf0000000, 4, 0], // reserved, broadcast
];

function classifyV4(o: readonly number[]): AddressKind {
  const n = ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;
  if (o[0] === 127) return 'loopback';
  for (const [base, bits] of V4_PRIVATE) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === base) return 'private';
  }
  return 'public';
}

/** Eight 16-bit groups, or undefined when `text` is not an IPv6 address. */
export function parseIPv6(text: string): number[] | undefined {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const lastColon = s.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (!v4) return undefined;
    const hi = ((v4[0]! << 8) | v4[1]!).toString(16);
    const lo = ((v4[2]! << 8) | v4[3]!).toString(16);
    s = `${s.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const group = /^[0-9a-fA-F]{1,4}$/;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? head.length !== 8 : fill < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...rest];
  if (!all.every((g) => group.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

function classifyV6(g: readonly number[]): AddressKind {
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  const v4At = (i: number): number[] => [g[i]! >> 8, g[i]! & 0xff, g[i + 1]! >> 8, g[i + 1]! & 0xff];
  if (zeros(0, 7) && g[7] === 1) return 'loopback'; // ::1
  if (zeros(0, 8)) return 'private'; // :: reaches local services
  if (zeros(0, 5) && g[5] === 0xffff) return classifyV4(v4At(6)); // IPv4-mapped
  if (zeros(0, 6)) return classifyV4(v4At(6)); // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b) return zeros(2, 6) ? classifyV4(v4At(6)) : 'private'; // NAT64
  if (g[0] === 0x2002) return classifyV4(v4At(1)); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return 'private'; // Teredo hides an IPv4 address
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'private'; // documentation
  if (g[0] === 0x100 && zeros(1, 4)) return 'private'; // discard prefix
  const top = g[0]!;
  if ((top & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((top & 0xffc0) === 0xfe80 || (top & 0xffc0) === 0xfec0) return 'private'; // link/site-local
  if ((top & 0xff00) === 0xff00) return 'private'; // multicast
  return 'public';
}

/** Names that only mean something inside a network. */
const INTERNAL_SUFFIXES = ['.local', '.internal', '.home.arpa', '.localdomain', '.lan', '.intranet', '.corp'];

/**
 * Classifies a canonical URL host (`URL.hostname`) or an address from a resolver.
 *
 * @example
 * ```ts
 * hostKind(new URL('http://0x7f.1/').hostname); // 'loopback' (the parser made it 127.0.0.1)
 * hostKind('[::ffff:a9fe:a9fe]');               // 'private' (169.254.169.254)
 * ```
 */
export function hostKind(host: string): AddressKind {
  const h = host.toLowerCase().replace(/\.$/, '');
  const v4 = parseIPv4(h);
  if (v4) return classifyV4(v4);
  if (h.includes(':')) {
    const v6 = parseIPv6(h);
    return v6 ? classifyV6(v6) : 'private';
  }
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  // A single label resolves through search domains, to an internal host.
  if (!h.includes('.') || INTERNAL_SUFFIXES.some((s) => h.endsWith(s))) return 'private';
  return 'public';
}

/** Whether a URL's host is loopback (used to pick the default policy). */
export function isLoopbackUrl(url: URL): boolean {
  return hostKind(url.hostname) === 'loopback';
}

/** A URL as it may appear in an error message: no query string, no credentials. */
export function shownUrl(url: URL): string {
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? `${url.origin}${url.pathname}`
    : url.protocol;
}

function refuse(what: string, url: URL, why: string): never {
  throw new AuthError('UnsafeUrl', `Refused the ${what} ${shownUrl(url)}: ${why}`);
}

function checkKind(what: string, url: URL, kind: AddressKind, policy: NetworkPolicy, host: string): void {
  if (kind === 'loopback' && policy.allowLoopback !== true) {
    refuse(what, url, `${host} is a loopback address (allowLoopback is off)`);
  }
  if (kind === 'private' && policy.allowPrivateNetwork !== true) {
    refuse(what, url, `${host} is a private, link-local or reserved address`);
  }
}

/**
 * Parses and checks a URL the OAuth layer is about to fetch, without resolving names.
 * Throws an {@link AuthError} `UnsafeUrl`.
 *
 * @example
 * ```ts
 * checkFetchUrl('http://169.254.169.254/latest', 'metadata URL', {}); // throws UnsafeUrl
 * ```
 */
export function checkFetchUrl(input: string | URL, what: string, policy: NetworkPolicy): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new AuthError('UnsafeUrl', `Refused the ${what}: it is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    refuse(what, url, `the ${url.protocol} scheme is not allowed (https only)`);
  }
  if (url.username !== '' || url.password !== '') refuse(what, url, 'it carries credentials');
  const kind = hostKind(url.hostname);
  checkKind(what, url, kind, policy, url.hostname);
  if (url.protocol === 'http:' && kind !== 'loopback' && policy.allowHttp !== true) {
    refuse(what, url, 'plain http is only allowed for loopback hosts');
  }
  return url;
}

/**
 * Why `policy` refuses a connection to `address` (an IP address a name resolved to), or
 * undefined when it may be reached. Anything that is not an IP address is refused.
 *
 * @example
 * ```ts
 * addressRefusal('169.254.169.254', {}); // 'a private, link-local or reserved address'
 * addressRefusal('127.0.0.1', { allowLoopback: true }); // undefined
 * ```
 */
export function addressRefusal(address: string, policy: NetworkPolicy): string | undefined {
  if (!parseIPv4(address) && !parseIPv6(address)) return 'not an IP address';
  const kind = hostKind(address);
  if (kind === 'loopback' && policy.allowLoopback !== true)
    return 'a loopback address (allowLoopback is off)';
  if (kind === 'private' && policy.allowPrivateNetwork !== true)
    return 'a private, link-local or reserved address';
  return undefined;
}

/**
 * The addresses a host name resolves to, each checked with {@link addressRefusal}: one
 * refused address refuses the name, since the connection may use any of them. Throws an
 * {@link AuthError} `UnsafeUrl` naming the host and the address.
 */
export async function resolveChecked(
  host: string,
  resolve: (hostname: string) => Promise<readonly string[]>,
  policy: NetworkPolicy,
): Promise<string[]> {
  const addresses = [...(await resolve(host))];
  if (addresses.length === 0) throw new AuthError('UnsafeUrl', `${host} resolves to no address`);
  for (const a of addresses) {
    const why = addressRefusal(a, policy);
    if (why !== undefined) throw new AuthError('UnsafeUrl', `${host} resolves to ${a}, ${why}`);
  }
  return addresses;
}

/** Whether a canonical URL host is an IP address rather than a name. */
function isAddress(host: string): boolean {
  return parseIPv4(host) !== undefined || host.startsWith('[');
}

/**
 * {@link checkFetchUrl}, then, when the policy has a resolver and the host is a name, every
 * address the name resolves to. Throws an {@link AuthError} `UnsafeUrl`.
 */
export async function checkFetchTarget(url: URL, what: string, policy: NetworkPolicy): Promise<void> {
  checkFetchUrl(url, what, policy);
  const resolve = policy.resolveHost;
  if (!resolve || isAddress(url.hostname)) return;
  try {
    await resolveChecked(url.hostname, resolve, policy);
  } catch (e) {
    const why = e instanceof AuthError ? e.message : `${url.hostname} did not resolve`;
    throw new AuthError('UnsafeUrl', `Refused the ${what} ${shownUrl(url)}: ${why}`, { cause: e });
  }
}

/**
 * Checks an authorization URL before it is shown or opened: only `https:` (or `http:` on
 * loopback, or anywhere with `allowHttp`), no credentials, and the same address rules as
 * fetches. `javascript:`, `data:`, `file:`,
 * `vbscript:` and every other scheme are refused, so a malicious server cannot turn
 * "open this URL" into script or command execution.
 *
 * @example
 * ```ts
 * checkAuthorizationUrl('javascript:alert(1)', {}); // throws UnsafeUrl
 * ```
 */
export function checkAuthorizationUrl(input: string | URL, policy: NetworkPolicy): URL {
  return checkFetchUrl(input, 'authorization URL', policy);
}
