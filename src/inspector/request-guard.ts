/**
 * Who may talk to the inspector. It listens on 127.0.0.1 only, and every request must
 * come from its own page: the Host header names this server (no DNS rebinding), an Origin
 * or Sec-Fetch-Site header, when the browser sends one, says same-origin (no other local
 * page, whatever its port), and the random token is presented. The API takes the token
 * only in a header, so a form or an image elsewhere can never call it; the page and its
 * assets also accept the cookie that opening the printed URL sets.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh access token: 24 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The name of the cookie that carries the token for one port (ports are separate inspectors). */
export function cookieName(port: number): string {
  return `mcpkit-inspector-${port}`;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** How the token may be presented: `header` for the API, `page` also allows the query and cookie. */
export type TokenPlace = 'header' | 'page';

export class RequestGuard {
  constructor(
    readonly token: string,
    private readonly port: number,
  ) {}

  /** The Host header values of this inspector. */
  get hosts(): string[] {
    return [`127.0.0.1:${this.port}`, `localhost:${this.port}`];
  }

  /** The origins of this inspector's own page. */
  get origins(): string[] {
    return [`http://127.0.0.1:${this.port}`, `http://localhost:${this.port}`];
  }

  /**
   * Undefined when the request may go on; otherwise the reason it is refused (403 for
   * the origin checks, 401 for a missing or wrong token).
   */
  check(
    req: IncomingMessage,
    url: URL,
    place: TokenPlace,
  ): { status: 401 | 403; reason: string } | undefined {
    const host = req.headers.host;
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`)
      return { status: 403, reason: `Host ${JSON.stringify(host ?? '')} is not allowed` };
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.includes(origin))
      return { status: 403, reason: `Origin ${JSON.stringify(origin)} is not allowed` };
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      return { status: 403, reason: `A ${site} request is not allowed` };
    const presented = this.presented(req, url, place);
    if (presented === undefined || !sameSecret(presented, this.token))
      return {
        status: 401,
        reason: 'The access token is missing or wrong: open the URL the inspector printed',
      };
    return undefined;
  }

  private presented(req: IncomingMessage, url: URL, place: TokenPlace): string | undefined {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
    if (place === 'header') return undefined;
    return url.searchParams.get('token') ?? cookie(req, cookieName(this.port));
  }
}
