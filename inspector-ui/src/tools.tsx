// The tools screen: the list, a form from the selected tool's input schema, the call
// history, and each result by content type; an MCP App view renders beside the result.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { ToolResult, Json } from './content';
import { SchemaForm, initialValue } from './schema-form';
import type { Schema } from './schema-form';
import { changed, state, useStore } from './store';
import type { CallRecord, Catalog } from './store';
import { AppSlot } from './app-slot';
import { appResourceUri, appVisibility } from 'mcpkit/host/apps';

type ToolEntry = Catalog['tools'][number];

let nextCall = 1;
/** A deep link's arguments, for the tool it names, taken once when that tool opens. */
let preset: { key: string; args: Record<string, unknown>; run: boolean } | undefined;

export function presetTool(key: string, args: Record<string, unknown>, run: boolean): void {
  preset = { key, args, run };
}

function takePreset(key: string): { args: Record<string, unknown>; run: boolean } | undefined {
  if (preset?.key !== key) return undefined;
  const p = preset;
  preset = undefined;
  return p;
}

/** Runs a tool and records the call in the page's history. */
export async function runTool(
  server: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallRecord> {
  const call: CallRecord = { id: `c${Date.now()}-${nextCall++}`, server, tool, args, started: Date.now() };
  state.calls = [call, ...state.calls].slice(0, 200);
  changed();
  const answer = await api<{ result?: Record<string, unknown>; ms?: number }>('call', {
    callId: call.id,
    server,
    tool,
    arguments: args,
  });
  if (answer.error) call.error = answer.error;
  else {
    call.result = answer.result ?? {};
    call.ms = answer.ms ?? Date.now() - call.started;
  }
  state.calls = [...state.calls];
  changed();
  return call;
}

/** The tool's MCP App view, as the apps bridge finds it (`_meta.ui.resourceUri`). */
export function uiResourceOf(tool: ToolEntry['definition']): string | undefined {
  return appResourceUri(tool);
}

function CallView({
  call,
  tool,
  onOpenLink,
}: {
  call: CallRecord;
  tool?: ToolEntry;
  onOpenLink(uri: string): void;
}) {
  const appUri = tool ? uiResourceOf(tool.definition) : undefined;
  return (
    <div class="call" data-call={call.id}>
      <div class="call-head">
        <strong>{call.tool}</strong> <span class="muted">{new Date(call.started).toLocaleTimeString()}</span>{' '}
        {call.ms !== undefined && <span class="tag">{call.ms} ms</span>}
        {!call.result && !call.error && (
          <>
            <span class="tag busy">running…</span>{' '}
            <button class="small" onClick={() => void api('cancel', { callId: call.id })}>
              Cancel
            </button>
          </>
        )}
      </div>
      {call.task && (
        <div class="task-line" data-testid="call-task" data-status={call.task.status}>
          task <code>{call.task.taskId}</code>{' '}
          <span class={`tag ${call.task.status === 'failed' ? 'bad' : call.result ? '' : 'busy'}`}>
            {call.task.status}
          </span>{' '}
          <span class="muted">{call.task.statusMessage ?? ''}</span>
        </div>
      )}
      {call.progress && !call.result && (
        <div class="progress" data-testid="progress">
          <progress
            value={call.progress.progress}
            {...(call.progress.total ? { max: call.progress.total } : {})}
          />{' '}
          {call.progress.progress}
          {call.progress.total ? ` / ${call.progress.total}` : ''} {call.progress.message ?? ''}
        </div>
      )}
      {call.error && (
        <div class="result error" data-testid="tool-error">
          <strong>Refused or failed{call.error.code !== undefined ? ` (${call.error.code})` : ''}:</strong>{' '}
          {call.error.message}
        </div>
      )}
      {call.result && (
        <div class={appUri ? 'with-app' : ''}>
          <ToolResult
            result={call.result}
            outputSchema={tool?.definition.outputSchema}
            onOpenLink={onOpenLink}
          />
          {appUri && tool && <AppSlot server={call.server} tool={tool.definition} uri={appUri} call={call} />}
        </div>
      )}
    </div>
  );
}

export function ToolsScreen({
  selected,
  onSelect,
  onOpenLink,
}: {
  selected: string | undefined;
  onSelect(key: string): void;
  onOpenLink(server: string, uri: string): void;
}) {
  const s = useStore();
  const [filter, setFilter] = useState('');
  const multi = new Set(s.catalog.tools.map((t) => t.server)).size > 1;
  const tools = s.catalog.tools.filter(
    (t) =>
      !filter || `${t.name} ${t.definition.description ?? ''}`.toLowerCase().includes(filter.toLowerCase()),
  );
  const tool = s.catalog.tools.find((t) => `${t.server}/${t.name}` === selected);
  return (
    <div class="split">
      <aside class="list">
        <input
          class="filter"
          placeholder={`Filter ${s.catalog.tools.length} tools`}
          value={filter}
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        />
        {tools.map((t) => (
          <button
            class={`item${`${t.server}/${t.name}` === selected ? ' on' : ''}`}
            data-tool={t.name}
            onClick={() => onSelect(`${t.server}/${t.name}`)}
          >
            {t.definition.title ? (
              <>
                <span class="name">{t.definition.title}</span>
                <code class="tool-name" data-testid="tool-name">
                  {t.name}
                </code>
              </>
            ) : (
              <code class="name tool-name" data-testid="tool-name">
                {t.name}
              </code>
            )}
            {multi && <span class="tag">{t.server}</span>}
            {uiResourceOf(t.definition) && <span class="tag app">app</span>}
            {!appVisibility(t.definition).includes('model') && <span class="tag">app-only</span>}
            <span class="desc">{t.definition.description ?? ''}</span>
          </button>
        ))}
        {s.catalog.tools.length === 0 && <p class="muted">No tools (yet).</p>}
      </aside>
      <section class="detail">
        {tool ? (
          <ToolDetail key={selected} tool={tool} onOpenLink={(uri) => onOpenLink(tool.server, uri)} />
        ) : (
          <p class="muted">Choose a tool.</p>
        )}
      </section>
    </div>
  );
}

function ToolDetail({ tool, onOpenLink }: { tool: ToolEntry; onOpenLink(uri: string): void }) {
  const s = useStore();
  const schema = (tool.definition.inputSchema ?? { type: 'object' }) as Schema;
  const [preset] = useState(() => takePreset(`${tool.server}/${tool.name}`));
  const [args, setArgs] = useState<Record<string, unknown>>(
    () => preset?.args ?? ((initialValue(schema, schema) ?? {}) as Record<string, unknown>),
  );
  const [asJson, setAsJson] = useState(false);
  const [jsonText, setJsonText] = useState('');
  useEffect(() => {
    if (preset?.run) void runTool(tool.server, tool.name, preset.args);
  }, []);
  const history = s.calls.filter((c) => c.server === tool.server && c.tool === tool.name);
  const [shown, setShown] = useState<string | undefined>(undefined);
  const current = history.find((c) => c.id === shown) ?? history[0];
  return (
    <div class="tool" data-testid="tool-detail">
      <h2>
        {tool.definition.title ?? <code class="tool-name">{tool.name}</code>}
        {tool.definition.title && (
          <>
            {' '}
            <code class="tool-name">{tool.name}</code>
          </>
        )}
      </h2>
      {tool.definition.description && <p class="description">{tool.definition.description}</p>}
      {tool.definition.annotations && (
        <div class="tags">
          {Object.entries(tool.definition.annotations).map(([k, v]) => (
            <span class="tag">
              {k}: {String(v)}
            </span>
          ))}
        </div>
      )}
      <form
        class="args"
        onSubmit={(e) => {
          e.preventDefault();
          let a = args;
          if (asJson) {
            try {
              a = JSON.parse(jsonText || '{}') as Record<string, unknown>;
            } catch {
              return;
            }
          }
          void runTool(tool.server, tool.name, a);
        }}
      >
        <div class="toggle">
          <button
            type="button"
            class={asJson ? 'small' : 'on small'}
            onClick={() => {
              if (asJson) {
                try {
                  setArgs(JSON.parse(jsonText || '{}') as Record<string, unknown>);
                } catch {
                  return;
                }
              }
              setAsJson(false);
            }}
          >
            Form
          </button>
          <button
            type="button"
            class={asJson ? 'on small' : 'small'}
            onClick={() => {
              setJsonText(JSON.stringify(args, null, 2));
              setAsJson(true);
            }}
          >
            JSON
          </button>
        </div>
        {asJson ? (
          <textarea
            class="json"
            rows={8}
            data-testid="args-json"
            value={jsonText}
            onInput={(e) => setJsonText((e.target as HTMLTextAreaElement).value)}
          />
        ) : (
          <SchemaForm schema={schema} value={args} onChange={setArgs} />
        )}
        <button type="submit" class="primary" data-testid="run">
          Run {tool.name}
        </button>
      </form>
      {current && <CallView call={current} tool={tool} onOpenLink={onOpenLink} />}
      {history.length > 1 && (
        <details class="history" open>
          <summary>Call history ({history.length})</summary>
          {history.map((c) => (
            <button class={`item${c === current ? ' on' : ''}`} onClick={() => setShown(c.id)}>
              {new Date(c.started).toLocaleTimeString()} <code>{JSON.stringify(c.args).slice(0, 80)}</code>{' '}
              {c.error ? (
                <span class="tag bad">refused</span>
              ) : c.result?.isError ? (
                <span class="tag bad">error</span>
              ) : c.result ? (
                <span class="tag">{c.ms} ms</span>
              ) : (
                <span class="tag busy">running</span>
              )}
            </button>
          ))}
        </details>
      )}
      <details class="schema">
        <summary>Definition</summary>
        <Json value={tool.definition} />
      </details>
    </div>
  );
}
