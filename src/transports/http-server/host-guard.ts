/**
 * DNS-rebinding protection. A loopback server accepts only loopback Host and Origin values;
 * a server bound elsewhere accepts only what it was told to, and an empty allowlist
 * blocks everything rather than allowing it.
 */
export interface HostGuardOptions {
  /** Host names (without port) allowed in the Host header. */
  allowedHosts?: readonly string[];
  /** Origins (`scheme://host[:port]`, or a bare host name for any scheme and port) allowed in Origin. */
  allowedOrigins?: readonly string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) {
    const end = hostHeader.indexOf(']');
    return end === -1 ? hostHeader : hostHeader.slice(0, end + 1).toLowerCase();
  }
  const colon = hostHeader.indexOf(':');
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

export class HostGuard {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins: readonly string[];
  /**
   * The Host value last allowed: a client sends the same one on every request. Read by the
   * handler, which then needs no call here for a request without Origin.
   */
  lastHost: string | undefined;

  /** `bindHost` decides the defaults: loopback names for a loopback bind, nothing otherwise. */
  constructor(bindHost: string, options: HostGuardOptions = {}) {
    const defaults = isLoopbackHost(bindHost) ? LOOPBACK : [];
    this.hosts = new Set((options.allowedHosts ?? defaults).map((h) => h.toLowerCase()));
    this.origins = (options.allowedOrigins ?? options.allowedHosts ?? defaults).map((o) => o.toLowerCase());
  }

  /** Undefined when allowed; otherwise why not. */
  check(host: string | undefined, origin: string | undefined): string | undefined {
    if (host === undefined || (host !== this.lastHost && !this.hostAllowed(host)))
      return `Host ${JSON.stringify(host ?? '')} is not allowed`;
    if (origin !== undefined && origin !== '' && !this.originAllowed(origin.toLowerCase())) {
      return `Origin ${JSON.stringify(origin)} is not allowed`;
    }
    return undefined;
  }

  private hostAllowed(host: string): boolean {
    if (!this.hosts.has(hostName(host))) return false;
    this.lastHost = host;
    return true;
  }

  private originAllowed(origin: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const name = url.hostname.startsWith('[') ? url.hostname : url.hostname.toLowerCase();
    return this.origins.some((o) => (o.includes('://') ? o === `${url.protocol}//${url.host}` : o === name));
  }
}
