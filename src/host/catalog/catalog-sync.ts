/**
 * Keeps the catalog current for one connection: a full listing when it comes up, then a
 * refresh of each kind on its `list_changed` (coalesced, so a flood of notifications
 * costs one listing at a time per kind), in either era.
 */
import type { CallOptions, Client } from '../../client/index.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../protocol/types/index.js';
import { errorText } from '../errors.js';
import type { Catalog } from './catalog.js';

type Kind = 'tools' | 'resources' | 'prompts';

/** Listing limits, so a hostile server cannot make the host hold unbounded lists. */
const MAX_ITEMS = 2000;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= MAX_ITEMS) break;
  }
  return out;
}

/**
 * Watches one connection. `stop()` when it goes down (the subscription ends with the
 * connection anyway).
 *
 * @example
 * ```ts
 * const sync = new CatalogSync('files', client, catalog, (m) => console.error(m));
 * await sync.start();
 * ```
 */
export class CatalogSync {
  private readonly running = new Map<Kind, Promise<void>>();
  private readonly again = new Set<Kind>();
  private stopped = false;
  private closeSubscription: (() => Promise<void>) | undefined;

  constructor(
    private readonly server: string,
    private readonly client: Client,
    private readonly catalog: Catalog,
    private readonly warn: (message: string) => void,
    /**
     * Options of every listing request. The host gives listings the connect timeout: they
     * are part of bringing a server up, and a short per-call timeout meant for tool calls
     * would leave a slow-to-list server with an empty catalog.
     */
    private readonly listOptions: CallOptions = {},
  ) {}

  /** Lists everything the server offers, then watches for changes. */
  async start(): Promise<void> {
    const caps = this.client.serverCapabilities ?? {};
    const kinds: Kind[] = (['tools', 'resources', 'prompts'] as const).filter((k) => caps[k] !== undefined);
    await Promise.all(kinds.map((k) => this.refresh(k)));
    const listChanged = (k: Kind) => (caps[k] as { listChanged?: boolean } | undefined)?.listChanged === true;
    const wanted = kinds.filter(listChanged);
    if (wanted.length === 0 || this.stopped) return;
    try {
      const sub = await this.client.subscribe({
        toolsListChanged: wanted.includes('tools'),
        resourcesListChanged: wanted.includes('resources'),
        promptsListChanged: wanted.includes('prompts'),
      });
      this.closeSubscription = () => sub.close();
      if (this.stopped) return void sub.close();
      void (async () => {
        try {
          for await (const event of sub) {
            if (this.stopped) break;
            if (event.kind !== 'resource') void this.refresh(event.kind);
          }
        } catch (e) {
          if (!this.stopped && this.client.isConnected)
            this.warn(`Change notifications from ${this.server} stopped: ${errorText(e)}`);
        }
      })();
    } catch (e) {
      this.warn(`Could not subscribe to changes of ${this.server}: ${errorText(e)}`);
    }
  }

  stop(): void {
    this.stopped = true;
    void this.closeSubscription?.().catch(() => undefined);
  }

  /** Refetches one kind; while a refetch runs, further requests fold into one more pass. */
  refresh(kind: Kind): Promise<void> {
    const current = this.running.get(kind);
    if (current) {
      this.again.add(kind);
      return current;
    }
    const run = (async () => {
      do {
        this.again.delete(kind);
        try {
          await this.list(kind);
        } catch (e) {
          if (!this.stopped && this.client.isConnected)
            this.warn(`Listing ${kind} of ${this.server} failed: ${errorText(e)}`);
        }
      } while (this.again.has(kind) && !this.stopped);
    })().finally(() => this.running.delete(kind));
    this.running.set(kind, run);
    return run;
  }

  private async list(kind: Kind): Promise<void> {
    if (kind === 'tools') {
      const tools: Tool[] = await collect(this.client.tools(this.listOptions));
      if (!this.stopped) await this.catalog.setTools(this.server, tools);
    } else if (kind === 'resources') {
      const [resources, templates]: [Resource[], ResourceTemplate[]] = await Promise.all([
        collect(this.client.resources(this.listOptions)),
        collect(this.client.resourceTemplates(this.listOptions)).catch(() => []),
      ]);
      if (!this.stopped) this.catalog.setResources(this.server, resources, templates);
    } else {
      const prompts: Prompt[] = await collect(this.client.prompts(this.listOptions));
      if (!this.stopped) this.catalog.setPrompts(this.server, prompts);
    }
  }
}
