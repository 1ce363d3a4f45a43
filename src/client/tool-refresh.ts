/**
 * `autoRefreshTools`: refetching the tool list when the server says it changed, and, in the
 * modern era, opening the subscription stream such notifications arrive on. Internal.
 */
import type { ServerCapabilities, Tool } from '../protocol/types/index.js';
import type { SubscriptionHub } from './subscriptions.js';

/** What the refresh needs of the client. */
export interface ToolRefreshHost {
  /** Every tool, page by page. */
  tools(): AsyncIterable<Tool>;
  isConnected(): boolean;
  /** The new list, after a pass no notification interrupted. */
  changed(tools: Tool[]): void;
  /** A failure of the background work. */
  failed(error: unknown): void;
}

export class ToolRefresh {
  private refreshing = false;
  private again = false;

  constructor(private readonly host: ToolRefreshHost) {}

  /** Refetches every tool page; notifications arriving meanwhile cause one more pass. */
  refresh(): void {
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    void this.run();
  }

  private async run(): Promise<void> {
    const host = this.host;
    try {
      do {
        this.again = false;
        const tools: Tool[] = [];
        for await (const tool of host.tools()) tools.push(tool);
        if (!this.again) host.changed(tools);
      } while (this.again && host.isConnected());
    } catch (e) {
      if (host.isConnected()) host.failed(e);
    } finally {
      this.refreshing = false;
    }
  }

  /** Modern era: list_changed only arrives on a subscription stream, so open one. */
  async watch(hub: SubscriptionHub, capabilities: ServerCapabilities | undefined): Promise<void> {
    const tools = capabilities?.tools;
    if (!tools || tools.listChanged !== true) return;
    try {
      await hub.subscribe({ toolsListChanged: true });
    } catch (e) {
      this.host.failed(e);
    }
  }
}
