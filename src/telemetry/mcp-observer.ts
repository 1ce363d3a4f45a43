import type { Attributes, Context, Link, Span } from '@opentelemetry/api';
import type { JsonRpcNotification, JsonRpcRequest, Params, RequestId, Transport } from '../jsonrpc/index.js';
import type { RequestContext, RequestHandler, SessionObserver } from '../session/index.js';
import { Attr, describe, failureOf, networkOf, spanAttributes } from './attributes.js';
import type { NetworkOf } from './attributes.js';
import type { SideInstruments } from './instruments.js';
import { metaGetter, metaOf, metaSetter, withMetaFields } from './meta-carrier.js';
import type { Telemetry } from './telemetry.js';
import { withField } from '../jsonrpc/with-field.js';

/** One request being traced: what its end needs. */
class Call {
  constructor(
    readonly span: Span,
    readonly context: Context,
    readonly method: string,
    readonly common: Attributes,
    readonly start: number,
  ) {}
}

/** The transport's session id (legacy Streamable HTTP, SSE), when it has one. */
function sessionIdOf(transport: Transport | undefined): string | undefined {
  const id = (transport as { sessionId?: unknown } | undefined)?.sessionId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function hasKeys(o: Record<string, unknown>): boolean {
  for (const _ in o) return true;
  return false;
}

/**
 * The OpenTelemetry side of one session (or of a server's session-less requests): a SERVER
 * span for each request or notification from the peer, a CLIENT span for each we send,
 * trace context in `_meta` both ways, and the MCP metrics. "Server" and "client" here are
 * the directions of the conventions, whichever end we are: a server's `sampling/createMessage`
 * is a CLIENT span on the server and a SERVER span on the client.
 */
export class McpObserver implements SessionObserver {
  private readonly network: NetworkOf;
  private readonly startedAt: number;
  /** The session metrics this session counts in, if any (a session-less exchange has none). */
  private readonly sessionSide: SideInstruments | undefined;

  constructor(
    private readonly telemetry: Telemetry,
    /** The end we play: which session metrics we feed. Undefined for session-less requests. */
    role: 'client' | 'server' | undefined,
    private readonly transport: Transport | undefined,
    kind: string | undefined,
  ) {
    this.network = networkOf(kind ?? transport?.kind);
    this.startedAt = performance.now();
    const instruments = telemetry.instruments;
    this.sessionSide = role === undefined || instruments === undefined ? undefined : instruments[role];
    this.sessionSide?.sessions.add(1, this.sessionAttributes());
  }

  private sessionAttributes(): Attributes {
    const a: Attributes = {};
    if (this.network.transport !== undefined) a[Attr.NetworkTransport] = this.network.transport;
    return a;
  }

  // ---------------------------------------------------------------- what the peer asked

  inboundStart(method: string, id: RequestId, params: Params, version: string | undefined): unknown {
    const { api, tracer } = this.telemetry;
    const ambient = api.context.active();
    let parent = ambient;
    let links: Link[] | undefined;
    if (this.telemetry.propagate) {
      const meta = metaOf(params);
      if (meta !== undefined) {
        const extracted = api.propagation.extract(api.ROOT_CONTEXT, meta, metaGetter);
        if (extracted !== api.ROOT_CONTEXT) {
          parent = extracted;
          // The conventions: the peer's context is the parent; the ambient one (an HTTP span) a link.
          const ambientSpan = api.trace.getSpanContext(ambient);
          if (ambientSpan !== undefined && api.trace.isSpanContextValid(ambientSpan))
            links = [{ context: ambientSpan }];
        }
      }
    }
    const { name, common } = describe(method, params, version, this.network);
    const span = tracer.startSpan(
      name,
      {
        kind: api.SpanKind.SERVER,
        attributes: spanAttributes(common, method, id, params, version, sessionIdOf(this.transport)),
        ...(links ? { links } : {}),
      },
      parent,
    );
    const side = this.telemetry.instruments?.server;
    if (side !== undefined) side.active.add(1, this.telemetry.methodAttributes(method));
    return new Call(span, api.trace.setSpan(parent, span), method, common, performance.now());
  }

  inboundRun(token: unknown, handler: RequestHandler, params: Params, ctx: RequestContext): unknown {
    return this.telemetry.api.context.with((token as Call).context, handler, undefined, params, ctx);
  }

  inboundEnd(token: unknown, result: unknown, error: unknown): void {
    this.end(token as Call, result, error, this.telemetry.instruments?.server);
  }

  notificationIn(method: string, params: Params, version: string | undefined): void {
    const { api, tracer } = this.telemetry;
    let parent = api.context.active();
    const meta = this.telemetry.propagate ? metaOf(params) : undefined;
    if (meta !== undefined) {
      const extracted = api.propagation.extract(api.ROOT_CONTEXT, meta, metaGetter);
      if (extracted !== api.ROOT_CONTEXT) parent = extracted;
    }
    const { name, common } = describe(method, params, version, this.network);
    tracer
      .startSpan(
        name,
        {
          kind: api.SpanKind.SERVER,
          attributes: spanAttributes(common, method, undefined, params, version, sessionIdOf(this.transport)),
        },
        parent,
      )
      .end();
  }

  // ---------------------------------------------------------------- what we asked

  outboundStart(message: JsonRpcRequest, version: string | undefined): unknown {
    const method = message.method;
    const { span, context, common } = this.startOutbound(message, message.id, version);
    const side = this.telemetry.instruments?.client;
    if (side !== undefined) side.active.add(1, this.telemetry.methodAttributes(method));
    return new Call(span, context, method, common, performance.now());
  }

  outboundEnd(token: unknown, result: unknown, error: unknown): void {
    this.end(token as Call, result, error, this.telemetry.instruments?.client);
  }

  notificationOut(message: JsonRpcNotification, version: string | undefined): void {
    this.startOutbound(message, undefined, version).span.end();
  }

  closed(): void {
    const side = this.sessionSide;
    if (side === undefined) return;
    const attrs = this.sessionAttributes();
    side.sessions.add(-1, attrs);
    side.session.record((performance.now() - this.startedAt) / 1000, attrs);
  }

  // ---------------------------------------------------------------- shared

  /** A CLIENT span for what we send, its context carried into the message's `_meta`. */
  private startOutbound(
    message: JsonRpcRequest | JsonRpcNotification,
    id: JsonRpcRequest['id'] | undefined,
    version: string | undefined,
  ): { span: Span; context: Context; common: ReturnType<typeof describe>['common'] } {
    const { api, tracer } = this.telemetry;
    const parent = api.context.active();
    const method = message.method;
    const { name, common } = describe(method, message.params, version, this.network);
    const attributes = spanAttributes(
      common,
      method,
      id,
      message.params,
      version,
      sessionIdOf(this.transport),
    );
    const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, parent);
    const context = api.trace.setSpan(parent, span);
    if (this.telemetry.propagate) this.inject(message, context);
    return { span, context, common };
  }

  /** Writes the context into the message's `_meta` through the global propagator. */
  private inject(message: JsonRpcRequest | JsonRpcNotification, context: Context): void {
    const carrier: Record<string, unknown> = {};
    this.telemetry.api.propagation.inject(context, carrier, metaSetter);
    if (hasKeys(carrier)) message.params = withMetaFields(message.params, carrier);
  }

  private end(call: Call, result: unknown, error: unknown, side: SideInstruments | undefined): void {
    const span = call.span;
    const failure = failureOf(call.method, result, error);
    if (failure !== undefined) {
      span.setAttribute(Attr.ErrorType, failure.type);
      if (failure.code !== undefined) span.setAttribute(Attr.StatusCode, failure.code);
      span.setStatus(
        failure.message === undefined
          ? { code: this.telemetry.api.SpanStatusCode.ERROR }
          : { code: this.telemetry.api.SpanStatusCode.ERROR, message: failure.message },
      );
    }
    span.end();
    if (side === undefined) return;
    let attrs = call.common;
    if (failure !== undefined) {
      attrs = withField(attrs, Attr.ErrorType, failure.type);
      if (failure.code !== undefined) attrs[Attr.StatusCode] = failure.code;
      side.errors.add(1, attrs);
    }
    side.operation.record((performance.now() - call.start) / 1000, attrs);
    side.active.add(-1, this.telemetry.methodAttributes(call.method));
  }
}
