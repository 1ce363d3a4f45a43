// Resources and templates (read, subscribe), and prompts (arguments, messages).
import { useState } from 'preact/hooks';
import { api } from './api';
import { Contents, Json, ResourceContents } from './content';
import { useStore } from './store';
import { CompletingInput } from './completion';

interface Read {
  server: string;
  uri: string;
  result?: { contents?: Array<Record<string, unknown>> };
  error?: { message: string };
}

/** Fills `{name}`, `{+name}` and `{?a,b}` of a URI template (RFC 6570 levels 1 to 3, simply). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#?&/.;]?)([^}]+)\}/g, (_, op: string, names: string) => {
    const list = names.split(',').map((n) => n.replace(/\*$/, ''));
    const enc = (v: string): string => (op === '+' || op === '#' ? encodeURI(v) : encodeURIComponent(v));
    if (op === '?' || op === '&') {
      const parts = list.filter((n) => values[n]).map((n) => `${n}=${enc(values[n]!)}`);
      return parts.length ? (op === '?' ? '?' : '&') + parts.join('&') : '';
    }
    const vals = list.filter((n) => values[n] !== undefined && values[n] !== '').map((n) => enc(values[n]!));
    const prefix = op === '#' ? '#' : op === '/' ? '/' : op === '.' ? '.' : '';
    return vals.length ? prefix + vals.join(op === '/' ? '/' : ',') : '';
  });
}

function variablesOf(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(/\{[+#?&/.;]?([^}]+)\}/g))
    for (const n of m[1]!.split(',')) out.push(n.replace(/\*$/, ''));
  return out;
}

export function ResourcesScreen({ open }: { open: { server: string; uri: string } | undefined }) {
  const s = useStore();
  const [read, setRead] = useState<Read | undefined>(undefined);
  const [values, setValues] = useState<Record<string, Record<string, string>>>({});
  const doRead = async (server: string, uri: string): Promise<void> => {
    setRead({ server, uri });
    const a = await api<{ result?: Read['result'] }>('read', { server, uri });
    setRead({ server, uri, ...(a.error ? { error: a.error } : { result: a.result ?? {} }) });
  };
  const [opened, setOpened] = useState<string | undefined>(undefined);
  if (open && opened !== `${open.server} ${open.uri}`) {
    setOpened(`${open.server} ${open.uri}`);
    void doRead(open.server, open.uri);
  }
  const subOf = (server: string, uri: string) =>
    s.subscriptions.find((x) => x.server === server && x.uri === uri);
  return (
    <div class="split">
      <aside class="list">
        <h3>Resources ({s.catalog.resources.length})</h3>
        {s.catalog.resources.map((r) => {
          const sub = subOf(r.server, r.definition.uri);
          return (
            <div
              class={`item${read?.uri === r.definition.uri ? ' on' : ''}`}
              data-resource={r.definition.uri}
            >
              <button class="link" onClick={() => void doRead(r.server, r.definition.uri)}>
                <span class="name">
                  {String(r.definition.title ?? r.definition.name ?? r.definition.uri)}
                </span>
                <code class="desc">{r.definition.uri}</code>
              </button>
              <button
                class="small"
                data-subscribe={r.definition.uri}
                onClick={() =>
                  void (sub
                    ? api('unsubscribe', { id: sub.id })
                    : api('subscribe', { server: r.server, uri: r.definition.uri }))
                }
              >
                {sub ? `Unsubscribe (${sub.updates} updates)` : 'Subscribe'}
              </button>
            </div>
          );
        })}
        <h3>Templates ({s.catalog.templates.length})</h3>
        {s.catalog.templates.map((t) => {
          const key = `${t.server} ${t.definition.uriTemplate}`;
          const v = values[key] ?? {};
          return (
            <form
              class="item template"
              data-template={t.definition.uriTemplate}
              onSubmit={(e) => {
                e.preventDefault();
                void doRead(t.server, expandTemplate(t.definition.uriTemplate, v));
              }}
            >
              <span class="name">{String(t.definition.title ?? t.definition.name ?? '')}</span>
              <code class="desc">{t.definition.uriTemplate}</code>
              {variablesOf(t.definition.uriTemplate).map((n) => (
                <label class="field inline">
                  {n}
                  <CompletingInput
                    server={t.server}
                    reference={{ type: 'ref/resource', uri: t.definition.uriTemplate }}
                    name={n}
                    value={v[n] ?? ''}
                    context={v}
                    dataAttr={{ 'data-var': n }}
                    onValue={(x) => setValues({ ...values, [key]: { ...v, [n]: x } })}
                  />
                </label>
              ))}
              <button class="small" type="submit">
                Read
              </button>
            </form>
          );
        })}
        {s.subscriptions.length > 0 && (
          <>
            <h3>Subscriptions</h3>
            {s.subscriptions.map((x) => (
              <div class="item" data-subscription={x.uri}>
                <code>{x.uri}</code> <span class="tag">{x.updates} updates</span>
                {x.last && <span class="muted"> last {new Date(x.last).toLocaleTimeString()}</span>}
              </div>
            ))}
          </>
        )}
      </aside>
      <section class="detail" data-testid="resource-detail">
        {!read && <p class="muted">Choose a resource, or fill in a template.</p>}
        {read && (
          <>
            <h2>
              <code>{read.uri}</code>
            </h2>
            {read.error && <div class="result error">{read.error.message}</div>}
            {read.result?.contents?.map((c) => (
              <ResourceContents c={c} />
            ))}
            {!read.result && !read.error && <p class="muted">Reading…</p>}
          </>
        )}
      </section>
    </div>
  );
}

export function PromptsScreen() {
  const s = useStore();
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<
    { result?: Record<string, unknown>; error?: { message: string } } | undefined
  >();
  const prompt = s.catalog.prompts.find((p) => `${p.server}/${p.name}` === selected);
  return (
    <div class="split">
      <aside class="list">
        {s.catalog.prompts.map((p) => (
          <button
            class={`item${`${p.server}/${p.name}` === selected ? ' on' : ''}`}
            data-prompt={p.name}
            onClick={() => {
              setSelected(`${p.server}/${p.name}`);
              setArgs({});
              setAnswer(undefined);
            }}
          >
            <span class="name">{p.name}</span>
            <span class="desc">{p.definition.description ?? ''}</span>
          </button>
        ))}
        {s.catalog.prompts.length === 0 && <p class="muted">No prompts.</p>}
      </aside>
      <section class="detail">
        {prompt ? (
          <>
            <h2>{prompt.name}</h2>
            {prompt.definition.description && <p class="description">{prompt.definition.description}</p>}
            <form
              class="args"
              onSubmit={(e) => {
                e.preventDefault();
                setAnswer(undefined);
                void api<{ result?: Record<string, unknown> }>('prompt', {
                  server: prompt.server,
                  name: prompt.name,
                  arguments: args,
                }).then((a) => setAnswer(a.error ? { error: a.error } : { result: a.result ?? {} }));
              }}
            >
              {(prompt.definition.arguments ?? []).map((a) => (
                <label class="field">
                  <span class="field-label">
                    {a.name}
                    {a.required && <span class="req">*</span>}
                    {a.description && <span class="hint">{a.description}</span>}
                  </span>
                  <CompletingInput
                    server={prompt.server}
                    reference={{ type: 'ref/prompt', name: prompt.name }}
                    name={a.name}
                    value={args[a.name] ?? ''}
                    context={args}
                    dataAttr={{ 'data-path': a.name }}
                    onValue={(x) => setArgs({ ...args, [a.name]: x })}
                  />
                </label>
              ))}
              <button class="primary" type="submit" data-testid="get-prompt">
                Get prompt
              </button>
            </form>
            {answer?.error && <div class="result error">{answer.error.message}</div>}
            {answer?.result && (
              <div class="messages" data-testid="prompt-result">
                {(
                  (answer.result.messages ?? []) as Array<{ role: string; content: Record<string, unknown> }>
                ).map((m) => (
                  <div class={`message ${m.role}`}>
                    <span class="tag">{m.role}</span>
                    <Contents items={[m.content]} />
                  </div>
                ))}
                <details>
                  <summary>JSON</summary>
                  <Json value={answer.result} />
                </details>
              </div>
            )}
          </>
        ) : (
          <p class="muted">Choose a prompt.</p>
        )}
      </section>
    </div>
  );
}
