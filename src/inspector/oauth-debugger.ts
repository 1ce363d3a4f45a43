/**
 * The inspector's OAuth debugger: API operations that start a flow and run it step by step
 * (see {@link OAuthFlow}), and the redirect URI the authorization server sends the user back
 * to. The callback is a page navigation from another origin, so it carries no token: it is
 * accepted only with the Host of this inspector and the `state` of the authorization request
 * waiting for it, and answers with a static page that shows no secret.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { callbackFromUrl } from '../auth/client/interaction.js';
import { OAuthFlow } from './oauth-steps.js';
import type { FlowSnapshot, OAuthFlowOptions } from './oauth-flow-types.js';

/** The path of the debugger's redirect URI on the inspector's own port. */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';

type Operation = (b: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

function text(v: unknown, name: string): string {
  if (typeof v !== 'string' || v === '') throw new Error(`"${name}" must be a non-empty string`);
  return v;
}

function optional(v: unknown, name: string): string | undefined {
  return v === undefined || v === null || v === '' ? undefined : text(v, name);
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One inspector's OAuth debugger: at most one flow at a time (starting another ends it).
 *
 * @example
 * ```ts
 * const debuggerOps = new OAuthDebugger(() => 'http://127.0.0.1:6274/oauth/callback');
 * const start = debuggerOps.operations()['oauth-start']!;
 * await start({ url: 'http://127.0.0.1:3000/mcp', era: 'modern' }, new AbortController().signal);
 * ```
 */
export class OAuthDebugger {
  private flow: OAuthFlow | undefined;

  constructor(private readonly redirectUri: () => string) {}

  private snapshot(): { flow: FlowSnapshot | null } {
    return { flow: this.flow?.snapshot() ?? null };
  }

  private current(id: unknown): OAuthFlow {
    const flow = this.flow;
    if (!flow || flow.id !== id) throw new Error('This flow is over: start again');
    return flow;
  }

  /** The API operations, named `oauth-*`, for the inspector server's table. */
  operations(): Record<string, Operation> {
    return {
      'oauth-start': async (b) => {
        const options: OAuthFlowOptions = {
          serverUrl: text(b.url, 'url'),
          redirectUri: this.redirectUri(),
          era: b.era === 'modern' ? 'modern' : 'legacy',
          guard: b.guard === 'strict' ? 'strict' : 'loopback',
        };
        if (b.timeoutMs !== undefined) {
          const t = b.timeoutMs;
          if (typeof t !== 'number' || !Number.isInteger(t) || t < 100 || t > 600_000)
            throw new Error('"timeoutMs" must be a whole number of milliseconds from 100 to 600000');
          options.timeoutMs = t;
        }
        const cimd = optional(b.clientMetadataUrl, 'clientMetadataUrl');
        if (cimd) options.clientMetadataUrl = cimd;
        const scope = optional(b.scope, 'scope');
        if (scope) options.scope = scope;
        const tool = optional(b.stepUpTool, 'stepUpTool');
        if (tool) options.stepUpTool = tool;
        const next = new OAuthFlow(options);
        await this.flow?.close();
        this.flow = next;
        return this.snapshot();
      },
      'oauth-next': async (b) => {
        await this.current(b.flow).next();
        return this.snapshot();
      },
      'oauth-follow': async (b) => {
        await this.current(b.flow).follow();
        return this.snapshot();
      },
      'oauth-state': async () => this.snapshot(),
    };
  }

  /** Answers a request to {@link OAUTH_CALLBACK_PATH}; `hosts` are this inspector's Host values. */
  async callback(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    hosts: readonly string[],
  ): Promise<void> {
    const page = (status: number, title: string, body: string): void => {
      res.writeHead(status, PAGE_HEADERS);
      res.end(
        `<!doctype html><meta charset="utf-8"><title>${escape(title)}</title>` +
          `<body style="font:16px system-ui;margin:3em"><h1>${escape(title)}</h1><p>${escape(body)}</p>`,
      );
    };
    // No DNS rebinding: the Host must name this inspector, as for every other request.
    if (!hosts.includes(req.headers.host ?? '')) return page(403, 'Refused', 'This host is not allowed.');
    if (req.method !== 'GET') return page(405, 'Refused', 'Use GET.');
    const flow = this.flow;
    if (!flow?.waitsFor(url.searchParams.get('state')))
      return page(
        400,
        'No authorization is waiting',
        'This response does not belong to the authorization the debugger is waiting for.',
      );
    const step = await flow.callback(callbackFromUrl(url));
    const ok = step.status === 'passed';
    page(
      200,
      ok ? 'Authorization received' : 'Authorization failed',
      ok
        ? 'The OAuth debugger has the response. Close this window and go back to the inspector.'
        : `${step.failure?.title ?? 'The step failed'}: see the inspector.`,
    );
  }
}
