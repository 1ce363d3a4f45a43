// An MCP App view, inline beside its tool's result: mcpkit's AppBridge frames it through
// the sandbox proxy (another origin), sends it the call's input and result, and serves
// its requests through the inspector's API, so they go through the host like any call.
import { useEffect, useRef, useState } from 'preact/hooks';
import { AppBridge, loadAppResource } from 'mcpkit/host/apps';
import type { AppServer } from 'mcpkit/host/apps';
import { api } from './api';
import { Json } from './content';
import { effectiveTheme, onSettings } from './settings';
import { state } from './store';
import type { CallRecord, Tool } from './store';

const proxyUrl = document.querySelector<HTMLMetaElement>('meta[name="mcpkit-sandbox"]')?.content ?? '';
let appCalls = 1;

/** The view's server, as the bridge needs it, over the inspector's API. */
function serverFor(server: string): AppServer {
  const unwrap = async (op: string, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const a = await api<{ result?: Record<string, unknown> }>(op, { server, ...body });
    if (a.error) throw new Error(a.error.message);
    return a.result ?? {};
  };
  return {
    callTool: (p) =>
      unwrap('call', {
        callId: `app-${Date.now()}-${appCalls++}`,
        tool: p.name,
        arguments: p.arguments ?? {},
        caller: 'app',
      }),
    readResource: (p) => unwrap('read', { uri: p.uri }),
    listResources: async () => ({
      resources: state.catalog.resources.filter((r) => r.server === server).map((r) => r.definition),
    }),
    listTools: async () => ({
      tools: state.catalog.tools.filter((t) => t.server === server).map((t) => t.definition),
    }),
  };
}

interface AppEvent {
  time: number;
  kind: string;
  detail: unknown;
}

export function AppSlot({
  server,
  tool,
  uri,
  call,
}: {
  server: string;
  tool: Tool;
  uri: string;
  call: CallRecord;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState('loading the view…');
  const [events, setEvents] = useState<AppEvent[]>([]);
  useEffect(() => {
    if (!proxyUrl) {
      setStatus('the inspector serves no sandbox proxy');
      return;
    }
    let bridge: AppBridge | undefined;
    let gone = false;
    // The page's theme follows the view (ui/notifications/host-context-changed).
    const off = onSettings(() => bridge?.setHostContext({ theme: effectiveTheme() }));
    const note = (kind: string, detail: unknown): void =>
      setEvents((e) => [...e.slice(-49), { time: Date.now(), kind, detail }]);
    void (async () => {
      try {
        const appServer = serverFor(server);
        const resource = await loadAppResource(appServer, uri, {
          listing: (state.catalog.resources.find((r) => r.server === server && r.definition.uri === uri)
            ?.definition ?? {}) as { _meta?: unknown },
        });
        if (gone || !container.current) return;
        bridge = new AppBridge({
          server: appServer,
          tools: state.catalog.tools.filter((t) => t.server === server).map((t) => t.definition),
          hostInfo: { name: 'mcpkit-inspector', version: '0.1.0' },
          hostContext: {
            theme: effectiveTheme(),
            displayMode: 'inline',
            availableDisplayModes: ['inline'],
            locale: navigator.language,
            containerDimensions: { maxHeight: 640 },
          },
          onOpenLink: (url) => {
            note('open-link', url);
            window.open(url, '_blank', 'noopener,noreferrer');
          },
          onMessage: (m) => note('message', m),
          onUpdateModelContext: (c) => note('model-context', c),
          onLog: (l) => note('log', l),
          onRejected: (what, detail) => note('refused', { what, detail }),
          onInitialized: () => setStatus('ready'),
        });
        await bridge.mount({ container: container.current, proxyUrl, resource, tool, toolCallId: call.id });
        bridge.sendToolInput(call.args);
        if (call.result) bridge.sendToolResult(call.result);
      } catch (e) {
        if (!gone) setStatus(`could not render the view: ${(e as Error).message}`);
      }
    })();
    return () => {
      off();
      gone = true;
      void bridge?.teardown('the inspector closed the view').catch(() => undefined);
    };
  }, [call.id]);
  return (
    <div class="app-slot" data-testid="app-slot" data-server={server} data-tool={tool.name} data-uri={uri}>
      <div class="resource-head">
        <span class="tag app">MCP App</span> <code>{uri}</code>{' '}
        <span class="muted" data-testid="app-status">
          {status}
        </span>
      </div>
      <div class="app-frame" ref={container} />
      {events.length > 0 && (
        <details class="app-events" open>
          <summary>From the view ({events.length})</summary>
          {events.map((e) => (
            <div class="app-event" data-app-event={e.kind}>
              <span class="tag">{e.kind}</span>
              <Json value={e.detail} />
            </div>
          ))}
        </details>
      )}
    </div>
  );
}
