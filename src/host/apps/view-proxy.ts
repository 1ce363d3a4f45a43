/**
 * The view's requests proxied to the server behind it: `tools/call` (app-only versus
 * model-visible tools enforced, then the host's policy), `resources/read` (the host's policy)
 * and `resources/list`, each under a bound on the requests in flight.
 */
import { WireError } from '../../jsonrpc/index.js';
import type { Params } from '../../jsonrpc/index.js';
import { isAppCallable } from '../../protocol/apps.js';
import type { RequestContext } from '../../session/index.js';
import type { AppBridgeOptions, ToolLike } from './app-bridge-types.js';
import { isObject } from '../../jsonrpc/is-object.js';

/** Denied by the host's policy or the user (the Apps specification's implementation-defined code). */
const DENIED = -32000;

export function denied(message: string): WireError {
  return new WireError(DENIED, message);
}

/** One view's proxy to its server; the bridge checks the handshake before each call. */
export class ViewProxy {
  private tools: Map<string, ToolLike> | undefined;
  private toolsLoading: Promise<Map<string, ToolLike>> | undefined;
  private inFlight = 0;

  constructor(private readonly options: AppBridgeOptions) {
    if (options.tools) this.tools = new Map(options.tools.map((t) => [t.name, t]));
  }

  /** Runs a proxied request unless the view already has too many in flight (memory stays bounded). */
  async bounded(run: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    if (this.inFlight >= (this.options.maxInFlight ?? 8)) {
      this.options.onRejected?.('too many proxied requests in flight', this.inFlight);
      throw denied('Too many requests in flight; wait for an answer first');
    }
    this.inFlight++;
    try {
      return await run();
    } finally {
      this.inFlight--;
    }
  }

  async callTool(p: Params, ctx: RequestContext): Promise<Record<string, unknown>> {
    const name = p.name;
    if (typeof name !== 'string') throw WireError.invalidParams('tools/call needs a tool name');
    const args = p.arguments === undefined ? {} : p.arguments;
    if (!isObject(args)) throw WireError.invalidParams('tools/call arguments must be an object');
    const tool = await this.toolNamed(name);
    if (!tool) {
      this.options.onRejected?.('tools/call of an unknown tool', name);
      throw WireError.invalidParams(`Unknown tool: ${name}`);
    }
    if (!isAppCallable(tool)) {
      this.options.onRejected?.('tools/call of a tool not visible to apps', name);
      throw denied(`Tool ${name} is not callable by apps (its visibility excludes "app")`);
    }
    const policy = this.options.canCallTool;
    if (policy && !(await policy({ name, arguments: args, tool }))) {
      this.options.onRejected?.('tools/call denied by the host policy', name);
      throw denied(`Tool call denied: ${name}`);
    }
    return this.options.server.callTool({ name, arguments: args }, { signal: ctx.signal });
  }

  async readResource(p: Params, ctx: RequestContext): Promise<Record<string, unknown>> {
    const uri = p.uri;
    if (typeof uri !== 'string') throw WireError.invalidParams('resources/read needs a uri');
    const policy = this.options.canReadResource;
    if (policy && !(await policy(uri))) {
      this.options.onRejected?.('resources/read denied by the host policy', uri);
      throw denied(`Resource read denied: ${uri}`);
    }
    return this.options.server.readResource({ uri }, { signal: ctx.signal });
  }

  async listResources(p: Params, ctx: RequestContext): Promise<Record<string, unknown>> {
    const server = this.options.server;
    if (!server.listResources) throw WireError.methodNotFound('resources/list (not proxied by this host)');
    const params = typeof p.cursor === 'string' ? { cursor: p.cursor } : {};
    return server.listResources(params, { signal: ctx.signal });
  }

  private async toolNamed(name: string): Promise<ToolLike | undefined> {
    if (!this.tools) {
      const list = this.options.server.listTools;
      if (!list) return undefined;
      this.toolsLoading ??= list
        .call(this.options.server)
        .then((r) => new Map(r.tools.map((t) => [t.name, t as ToolLike])));
      try {
        this.tools = await this.toolsLoading;
      } finally {
        this.toolsLoading = undefined;
      }
    }
    return this.tools.get(name);
  }
}
