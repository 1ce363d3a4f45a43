// Servers and their health: state, transport, negotiated era and revision, capabilities.
import { useState } from 'preact/hooks';
import { api } from './api';
import { ConfigSnippet, ConnectForm, SettingsCard } from './connect';
import { Json } from './content';
import { useStore } from './store';

export function ServersScreen() {
  const s = useStore();
  const [pings, setPings] = useState<Record<string, string>>({});
  const [roots, setRoots] = useState<Record<string, string>>({});
  const [told, setTold] = useState<Record<string, string>>({});
  const [reconnecting, setReconnecting] = useState<Record<string, string>>({});
  return (
    <div class="cards">
      {s.servers.map((h) => {
        const target = s.targets.find((t) => t.name === h.name);
        return (
          <div class={`card state-${h.state}`} data-server={h.name}>
            <h2>
              {/* A long name is cut with an ellipsis; the whole of it is the tooltip. */}
              <span class="server-name" title={h.name} data-testid="server-name">
                {h.name}
              </span>{' '}
              <span class={`state ${h.state}`} data-testid="server-state">
                {h.state}
              </span>
            </h2>
            <dl>
              <dt>Target</dt>
              <dd>
                <span class="tag">{h.transport}</span> <code>{target?.target}</code>
              </dd>
              {h.serverInfo && (
                <>
                  <dt>Server</dt>
                  <dd data-testid="server-info">
                    {h.serverInfo.name} {h.serverInfo.version}
                  </dd>
                </>
              )}
              {h.era && (
                <>
                  <dt>Era</dt>
                  <dd data-testid="server-era">
                    {h.era} <span class="muted">revision {h.protocolVersion}</span>
                  </dd>
                </>
              )}
              {h.pid !== undefined && (
                <>
                  <dt>Process</dt>
                  <dd>pid {h.pid}</dd>
                </>
              )}
              {h.connectedAt && (
                <>
                  <dt>Connected</dt>
                  <dd>{new Date(h.connectedAt).toLocaleTimeString()}</dd>
                </>
              )}
              <dt>Restarts</dt>
              <dd>{h.restarts}</dd>
              {h.nextAttemptAt && (
                <>
                  <dt>Next attempt</dt>
                  <dd>{new Date(h.nextAttemptAt).toLocaleTimeString()}</dd>
                </>
              )}
            </dl>
            {h.lastError && <pre class="result error">{h.lastError}</pre>}
            {h.instructions && (
              <details>
                <summary>Instructions</summary>
                <pre class="text">{h.instructions}</pre>
              </details>
            )}
            {h.capabilities && (
              <details>
                <summary>Capabilities: {Object.keys(h.capabilities).join(', ') || 'none'}</summary>
                <Json value={h.capabilities} />
              </details>
            )}
            {h.state === 'ready' && (
              <form
                class="roots"
                onSubmit={(e) => {
                  e.preventDefault();
                  const paths = (roots[h.name] ?? '')
                    .split('\n')
                    .map((p) => p.trim())
                    .filter(Boolean);
                  void api<{ roots?: Array<{ uri: string }> }>('roots', { server: h.name, paths }).then((a) =>
                    setTold({
                      ...told,
                      [h.name]: a.error
                        ? a.error.message
                        : `told: ${(a.roots ?? []).map((r) => r.uri).join(', ') || 'no roots'}`,
                    }),
                  );
                }}
              >
                <label class="field">
                  <span class="field-label">
                    Roots<span class="hint">absolute paths, one per line</span>
                  </span>
                  <textarea
                    rows={2}
                    data-testid="roots"
                    value={roots[h.name] ?? ''}
                    onInput={(e) => setRoots({ ...roots, [h.name]: (e.target as HTMLTextAreaElement).value })}
                  />
                </label>
                <div class="buttons">
                  <button type="submit" data-testid="set-roots">
                    Tell the server
                  </button>
                  {told[h.name] && <span data-testid="roots-result">{told[h.name]}</span>}
                </div>
              </form>
            )}
            <div class="buttons">
              <button
                data-testid="reconnect"
                disabled={reconnecting[h.name] === '…'}
                onClick={() => {
                  setReconnecting({ ...reconnecting, [h.name]: '…' });
                  void api<{ server?: { state: string } }>('reconnect', { server: h.name }).then((a) =>
                    setReconnecting({
                      ...reconnecting,
                      [h.name]: a.error ? a.error.message : `reconnected: ${a.server?.state ?? '?'}`,
                    }),
                  );
                }}
              >
                Reconnect
              </button>
              {reconnecting[h.name] && <span data-testid="reconnect-result">{reconnecting[h.name]}</span>}
            </div>
            {h.state === 'ready' && (
              <div class="buttons">
                <button
                  data-testid="ping"
                  onClick={() =>
                    void api<{ ms?: number; method?: string }>('ping', { server: h.name }).then((a) =>
                      setPings({ ...pings, [h.name]: a.error ? a.error.message : `${a.method}: ${a.ms} ms` }),
                    )
                  }
                >
                  Ping
                </button>
                {pings[h.name] && <span data-testid="ping-result">{pings[h.name]}</span>}
              </div>
            )}
          </div>
        );
      })}
      {s.servers.length === 0 && <p class="muted">No server yet: connect one below.</p>}
      <ConnectForm />
      <SettingsCard />
      <ConfigSnippet />
    </div>
  );
}
