/**
 * Test-only support for end-to-end tests of a server: a transport wrapper that checks every
 * message both sides emit against the official schema, a scripted client (sampling,
 * elicitation, roots) and a raw client Session that speaks either era, with the modern
 * era's `input_required` retry loop.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import assert from 'node:assert/strict';
import type { RequestId, SendOptions, Transport, TransportSink } from '../jsonrpc/index.js';
import { WireRecorder } from '../inspector/wire-recorder.js';
import type { WireDirection } from '../inspector/wire-recorder.js';
import { isModernVersion } from '../protocol/versions.js';
import { Session } from '../session/index.js';
import type { RequestOptions } from '../session/index.js';
import { validateWireMessage } from './wire-schema.js';
import { unshapedFields } from './wire-fields.js';

export type Obj = Record<string, unknown>;
export type Side = 'client' | 'server';

/** One message that passed through a {@link WireTap}, with when it passed. */
export interface TapEntry {
  from: Side;
  message: Obj;
  at: number;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Wraps the client's transport (through the inspector's {@link WireRecorder}) and records what
 * the client sends and what the server's messages deliver to the client. Each message is
 * validated against the schema of `revision`; responses are checked as answers to the method of the request
 * with their id, kept per direction. Problems are collected, not thrown, so a bad message
 * never disturbs the exchange; call {@link assertValid} at the end.
 */
export class WireTap implements Transport {
  readonly kind: string | undefined;
  readonly entries: TapEntry[] = [];
  readonly problems: string[] = [];
  /** Requests by sender, id → method, so responses can be checked with `respondingTo`. */
  private readonly requests = {
    client: new Map<RequestId, string>(),
    server: new Map<RequestId, string>(),
  };

  /** The pass-through the inspector records its wire history with; this tap is its listener. */
  private readonly recorder: WireRecorder;
  /** Passed through: over modern Streamable HTTP, closing a request's stream cancels it. */
  readonly abortRequest?: (id: RequestId) => boolean;

  constructor(
    readonly inner: Transport,
    public revision: string,
  ) {
    this.kind = inner.kind;
    this.recorder = new WireRecorder(inner, (direction, message, invalid) =>
      this.record(direction, message, invalid),
    );
    if (this.recorder.abortRequest) this.abortRequest = (id) => this.recorder.abortRequest!(id);
  }

  start(sink: TransportSink): void | Promise<void> {
    return this.recorder.start(sink);
  }

  send(message: Parameters<Transport['send']>[0], options?: SendOptions): void | Promise<void> {
    return this.recorder.send(message, options);
  }

  close(): Promise<void> {
    return this.recorder.close();
  }

  /** Messages from one side; notifications of `method` when it is given. */
  notifications(method?: string, from: Side = 'server'): Obj[] {
    return this.entries
      .filter((e) => e.from === from && e.message.method !== undefined && e.message.id === undefined)
      .filter((e) => method === undefined || e.message.method === method)
      .map((e) => e.message);
  }

  /** Requests sent by one side, optionally of one method. */
  requestsFrom(from: Side, method?: string): Obj[] {
    return this.entries
      .filter((e) => e.from === from && e.message.method !== undefined && e.message.id !== undefined)
      .filter((e) => method === undefined || e.message.method === method)
      .map((e) => e.message);
  }

  /** Responses one side sent with this id. */
  responses(id: unknown, from: Side = 'server'): Obj[] {
    return this.entries
      .filter((e) => e.from === from && e.message.method === undefined && e.message.id === id)
      .map((e) => e.message);
  }

  /** Fails with every schema problem seen so far. */
  assertValid(): void {
    assert.deepEqual(this.problems, [], `wire messages failed the ${this.revision} schema`);
  }

  private record(direction: WireDirection, message: unknown, invalid?: string): void {
    const from: Side = direction === 'out' ? 'client' : 'server';
    if (invalid !== undefined) {
      this.problems.push(`the ${from} sent an invalid message: ${invalid}`);
      return;
    }
    for (const m of Array.isArray(message) ? message : [message]) {
      // A batch item that did not parse arrives as null.
      if (m === null) this.problems.push(`the ${from} sent an invalid message in a batch`);
      else this.observe(from, m);
    }
  }

  private observe(from: Side, raw: unknown): void {
    // Copy: the session may reuse or mutate what it sends, and we look at it later.
    const message = JSON.parse(JSON.stringify(raw)) as Obj;
    this.entries.push({ from, message, at: performance.now() });
    let respondingTo: string | undefined;
    if (typeof message.method === 'string') {
      if (message.id !== undefined) this.requests[from].set(message.id as RequestId, message.method);
    } else {
      if (message.id === null && isObj(message.error)) {
        // JSON-RPC 2.0 requires `id: null` when the offending message's id is unknown
        // (parse errors, unreadable requests); the MCP schema has no null id. Known exception.
        return;
      }
      respondingTo = this.requests[from === 'client' ? 'server' : 'client'].get(message.id as RequestId);
    }
    const problems = validateWireMessage(this.revision, message, {
      sender: from,
      ...(respondingTo !== undefined ? { respondingTo } : {}),
    });
    // The schemas leave objects open: also refuse fields an older revision does not define.
    problems.push(...unshapedFields(this.revision, message, respondingTo));
    for (const p of problems) {
      this.problems.push(
        `${from} ${String(message.method ?? respondingTo ?? '?')}: ${p} in ${JSON.stringify(message).slice(0, 400)}`,
      );
    }
  }
}

/** Plays the user and the LLM on the client side, recording every question it was asked. */
export class ClientScript {
  readonly asked: Array<{ method: string; params: Obj }> = [];
  elicitAction: 'accept' | 'decline' | 'cancel' = 'accept';
  roots = [{ uri: 'file:///home/user/project', name: 'project' }];
  /** While set, answers wait for it: the user is still thinking. */
  hold: Promise<unknown> | undefined;

  answer(method: string, params: Obj = {}): Obj | Promise<Obj> {
    this.asked.push({ method, params });
    const hold = this.hold;
    return hold ? hold.then(() => this.reply(method, params)) : this.reply(method, params);
  }

  private reply(method: string, params: Obj): Obj {
    switch (method) {
      case 'sampling/createMessage': {
        const messages = Array.isArray(params.messages) ? (params.messages as Obj[]) : [];
        const content = messages.at(-1)?.content as Obj | undefined;
        const text = typeof content?.text === 'string' ? content.text : '';
        return {
          role: 'assistant',
          content: { type: 'text', text: `Echo: ${text}` },
          model: 'test-model',
          stopReason: 'endTurn',
        };
      }
      case 'elicitation/create':
        return this.elicitAction === 'accept'
          ? { action: 'accept', content: formAnswer(params.requestedSchema) }
          : { action: this.elicitAction };
      case 'roots/list':
        return { roots: this.roots };
      default:
        throw new Error(`ClientScript has no answer for ${method}`);
    }
  }

  /** Questions asked with one method. */
  questions(method: string): Obj[] {
    return this.asked.filter((a) => a.method === method).map((a) => a.params);
  }
}

/** A valid form answer: each field's default, else the first choice, else a sample value. */
export function formAnswer(schema: unknown): Obj {
  const props = isObj(schema) && isObj(schema.properties) ? schema.properties : {};
  const out: Obj = {};
  for (const [key, p] of Object.entries(props)) {
    if (!isObj(p)) continue;
    const first = (list: unknown): unknown => (Array.isArray(list) ? (list[0] as Obj | string) : undefined);
    let value: unknown = p.default;
    if (value === undefined) {
      if (p.type === 'array') {
        const items = isObj(p.items) ? p.items : {};
        const choice = first(items.enum) ?? (first(items.anyOf) as Obj | undefined)?.const;
        value = choice === undefined ? [] : [choice];
      } else if (p.type === 'boolean') value = true;
      else if (p.type === 'integer' || p.type === 'number') value = 7;
      else value = first(p.enum) ?? (first(p.oneOf) as Obj | undefined)?.const ?? `${key}-value`;
    }
    // Form answers carry strings, integers, booleans and string arrays only.
    out[key] = typeof value === 'number' ? Math.round(value) : value;
  }
  return out;
}

export const CLIENT_INFO = Object.freeze({ name: 'mcpkit-test-client', version: '1.0.0' });
export const CLIENT_CAPABILITIES = Object.freeze({
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
});

/** A client connection: the raw Session, its tap and its script. */
export interface TestClient {
  readonly session: Session;
  readonly tap: WireTap;
  readonly script: ClientScript;
  readonly revision: string;
  readonly modern: boolean;
  /** Sends a request; in the modern era answers `input_required` rounds until complete. */
  request(method: string, params?: Obj, options?: RequestOptions): Promise<Obj>;
  /** `tools/call` through {@link request}. */
  callTool(name: string, args?: Obj, options?: RequestOptions): Promise<Obj>;
  /** The number of `input_required` rounds the last modern request took. */
  rounds: number;
  close(): Promise<void>;
}

export interface OpenClientOptions {
  /** Legacy: the version to offer in `initialize` (default: the revision). */
  offer?: string;
  capabilities?: Obj;
  timeoutMs?: number;
}

/**
 * Connects a raw client Session over `transport`: `initialize` for a legacy revision,
 * `useModern` for a modern one. Sampling, elicitation and roots are answered by the
 * script, as server-to-client requests (legacy) or input requests (modern).
 */
export async function openClient(
  transport: Transport,
  revision: string,
  options: OpenClientOptions = {},
): Promise<TestClient> {
  const session = new Session({
    role: 'client',
    info: CLIENT_INFO,
    capabilities: options.capabilities ?? CLIENT_CAPABILITIES,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const tap = new WireTap(transport, revision);
  const script = new ClientScript();
  for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
    session.setRequestHandler(method, (params) => script.answer(method, params));
  }
  await session.connect(tap);
  const modern = isModernVersion(revision);
  if (modern) session.useModern(revision);
  else await session.initialize({ protocolVersion: options.offer ?? revision });

  const client: TestClient = {
    session,
    tap,
    script,
    revision,
    modern,
    rounds: 0,
    async request(method, params = {}, requestOptions) {
      client.rounds = 0;
      let current = params;
      for (;;) {
        const result = await session.request(method, current, requestOptions);
        if (!modern || result.resultType !== 'input_required') return result;
        if (++client.rounds > 10) throw new Error(`${method}: more than 10 input_required rounds`);
        const inputResponses: Obj = {};
        for (const [key, req] of Object.entries((result.inputRequests ?? {}) as Record<string, Obj>)) {
          inputResponses[key] = await script.answer(String(req.method), isObj(req.params) ? req.params : {});
        }
        // The retry repeats the original request, plus the answers and the same state.
        current = { ...params, inputResponses, requestState: result.requestState };
      }
    },
    callTool(name, args = {}, requestOptions) {
      return client.request('tools/call', { name, arguments: args }, requestOptions);
    },
    close: () => session.close(),
  };
  return client;
}
