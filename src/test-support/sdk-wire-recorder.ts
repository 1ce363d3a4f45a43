/**
 * Test-only: an official SDK client transport wrapped so that every message either side
 * sends is recorded and checked against the official schema of the revision in use.
 */
import type { Obj } from './mcp-harness.js';
import { validateWireMessage } from './wire-schema.js';

/** What an official SDK transport looks like: start, send, close and three callbacks. */
export interface SdkTransport {
  start(): Promise<void>;
  send(message: never, options?: never): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  setProtocolVersion?(version: string): void;
}

/**
 * Wraps an official SDK client transport, recording every message and checking it against
 * the schema of `revision`. Problems are collected per sender: `server` ones are ours.
 */
export class SdkWireRecorder {
  onmessage?: ((message: unknown, extra?: unknown) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly messages: Array<{ from: 'client' | 'server'; message: Obj }> = [];
  readonly problems = { client: [] as string[], server: [] as string[] };
  private readonly ids = { client: new Map<unknown, string>(), server: new Map<unknown, string>() };

  constructor(
    private readonly inner: SdkTransport,
    readonly revision: string,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      this.observe('server', message);
      this.onmessage?.(message, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    await this.inner.start();
  }

  async send(message: unknown, options?: unknown): Promise<void> {
    this.observe('client', message);
    await this.inner.send(message as never, options as never);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** Everything the server sent, in order. */
  get fromServer(): Obj[] {
    return this.messages.filter((m) => m.from === 'server').map((m) => m.message);
  }

  /** Notifications the server sent, of one method. */
  notifications(method: string): Obj[] {
    return this.messages
      .filter((m) => m.from === 'server' && m.message.method === method && m.message.id === undefined)
      .map((m) => m.message);
  }

  /** Requests one side sent. */
  requestsFrom(from: 'client' | 'server', method?: string): Obj[] {
    return this.messages
      .filter((m) => m.from === from && m.message.id !== undefined && typeof m.message.method === 'string')
      .filter((m) => method === undefined || m.message.method === method)
      .map((m) => m.message);
  }

  private observe(from: 'client' | 'server', raw: unknown): void {
    const message = JSON.parse(JSON.stringify(raw)) as Obj;
    this.messages.push({ from, message });
    let respondingTo: string | undefined;
    if (typeof message.method === 'string') {
      if (message.id !== undefined) this.ids[from].set(message.id, message.method);
    } else {
      respondingTo = this.ids[from === 'client' ? 'server' : 'client'].get(message.id);
    }
    for (const p of validateWireMessage(this.revision, message, {
      sender: from,
      ...(respondingTo !== undefined ? { respondingTo } : {}),
    })) {
      this.problems[from].push(`${String(message.method ?? respondingTo)}: ${p}`);
    }
  }
}
