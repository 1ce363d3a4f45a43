// An MCP App view, inline beside its tool's result: mcpkit's AppBridge frames it through
// the sandbox proxy (another origin), sends it the call's input and result, and serves
// its requests through the inspector's API, so they go through the host like any call.
import { useEffect, useRef, useState } from 'preact/hooks';
import { AppBridge, loadAppResource } from 'mcpkit/host/apps';
import type { AppDownloadItem, AppServer, ViewTool } from 'mcpkit/host/apps';
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

/** Saves what a view offers (`ui/download-file`): inline data as is, a link read through the server first. */
async function download(server: string, items: AppDownloadItem[]): Promise<boolean> {
  for (const item of items) {
    let content: { uri: string; mimeType?: string; text?: string; blob?: string } | undefined;
    if (item.type === 'resource') content = item.resource;
    else {
      const a = await api<{ result?: { contents?: Array<typeof content> } }>('read', {
        server,
        uri: item.uri,
      });
      if (a.error) throw new Error(a.error.message);
      content = a.result?.contents?.[0];
    }
    if (!content) return false;
    const type = content.mimeType ?? 'application/octet-stream';
    const body =
      content.blob !== undefined
        ? Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0))
        : (content.text ?? '');
    const url = URL.createObjectURL(new Blob([body], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = decodeURIComponent(content.uri.split(/[/\\]/).pop() || 'download') || 'download';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  return true;
}

interface PendingSample {
  params: Record<string, unknown>;
  answer(text: string | undefined): void;
}

/** The text of a sampling request's messages, for the person answering it. */
function samplingText(params: Record<string, unknown>): string {
  const messages = Array.isArray(params.messages) ? (params.messages as Array<Record<string, unknown>>) : [];
  return messages
    .map((m) => {
      const c = m.content as { type?: string; text?: string } | undefined;
      return `${String(m.role)}: ${c?.type === 'text' ? c.text : `[${c?.type ?? '?'}]`}`;
    })
    .join('\n');
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
  const [sample, setSample] = useState<PendingSample | undefined>(undefined);
  const [reply, setReply] = useState('');
  const [viewTools, setViewTools] = useState<ViewTool[]>([]);
  const bridgeRef = useRef<AppBridge | undefined>(undefined);
  const note = (kind: string, detail: unknown): void =>
    setEvents((e) => [...e.slice(-49), { time: Date.now(), kind, detail }]);
  useEffect(() => {
    if (!proxyUrl) {
      setStatus('the inspector serves no sandbox proxy');
      return;
    }
    let bridge: AppBridge | undefined;
    let gone = false;
    // The page's theme follows the view (ui/notifications/host-context-changed).
    const off = onSettings(() => bridge?.setHostContext({ theme: effectiveTheme() }));
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
          onDownloadFile: async (items) => {
            note('download', items);
            return download(server, items);
          },
          // The person at the page plays the model, as for a server's sampling request.
          onSampling: (params, signal) =>
            new Promise((resolve, reject) => {
              note('sampling', params);
              const done = (text: string | undefined): void => {
                setSample(undefined);
                if (text === undefined) reject(new Error('User rejected sampling request'));
                else
                  resolve({
                    role: 'assistant',
                    content: { type: 'text', text },
                    model: 'you (typed in the inspector)',
                    stopReason: 'endTurn',
                  });
              };
              signal.addEventListener('abort', () => done(undefined), { once: true });
              setSample({ params, answer: done });
            }),
          onViewToolsChanged: () => void listTools(),
        });
        bridgeRef.current = bridge;
        const listTools = async (): Promise<void> => {
          const list = await bridge!.listViewTools().catch(() => []);
          if (!gone) setViewTools(list);
        };
        // A view removed before it initialized rejects `ready`: nothing to list then.
        void bridge.ready.then(listTools, () => undefined);
        await bridge.mount({
          container: container.current,
          proxyUrl,
          resource,
          tool,
          toolCallId: call.id,
          domainOrigins: true,
        });
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
      {sample && (
        <div class="question" data-testid="app-sampling">
          <strong>The view asks the model:</strong>
          <pre class="text">{samplingText(sample.params)}</pre>
          <textarea
            rows={2}
            data-testid="app-sampling-reply"
            value={reply}
            onInput={(e) => setReply((e.target as HTMLTextAreaElement).value)}
          />
          <div class="buttons">
            <button data-testid="app-sampling-send" onClick={() => sample.answer(reply)}>
              Send as the model
            </button>
            <button onClick={() => sample.answer(undefined)}>Reject</button>
          </div>
        </div>
      )}
      {viewTools.length > 0 && (
        <div class="buttons" data-testid="view-tools">
          <span class="muted">The view's tools:</span>
          {viewTools.map((t) => (
            <button
              class="small"
              data-view-tool={t.name}
              title={t.description ?? ''}
              onClick={() =>
                void bridgeRef.current
                  ?.callViewTool(t.name, {})
                  .then((r) => note('view-tool-result', { tool: t.name, result: r }))
                  .catch((e: Error) => note('view-tool-error', { tool: t.name, error: e.message }))
              }
            >
              {t.title ?? t.name}
            </button>
          ))}
        </div>
      )}
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
