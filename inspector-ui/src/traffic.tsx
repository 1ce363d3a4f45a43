// The live log and notification panel, and the filterable wire history.
import { useState } from 'preact/hooks';
import { api } from './api';
import { Json } from './content';
import { useStore } from './store';
import type { WireEntry } from './store';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Rows rendered at first, newest kept; "Show more" adds as many again (a flood stays cheap to draw). */
const PAGE_ROWS = 500;

function More({ shown, total, onMore }: { shown: number; total: number; onMore(): void }) {
  if (shown >= total) return null;
  return (
    <div class="buttons more" data-testid="more-rows">
      <span class="muted">
        The newest {shown} of {total} shown.
      </span>
      <button class="small" onClick={onMore}>
        Show {Math.min(PAGE_ROWS, total - shown)} more
      </button>
    </div>
  );
}

function time(t: number): string {
  return (
    new Date(t).toLocaleTimeString(undefined, { hour12: false }) + '.' + String(t % 1000).padStart(3, '0')
  );
}

export function LogsScreen() {
  const s = useStore();
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(PAGE_ROWS);
  const rows: Array<{ time: number; kind: string; server?: string; level?: string; text: string }> = [];
  for (const l of s.logs)
    rows.push({
      time: l.time,
      kind: 'log',
      server: l.server,
      level: l.level,
      text: `${l.logger ? `[${l.logger}] ` : ''}${typeof l.data === 'string' ? l.data : JSON.stringify(l.data)}`,
    });
  for (const n of s.notices)
    rows.push({ time: n.time, kind: 'notice', ...(n.server ? { server: n.server } : {}), text: n.message });
  for (const w of s.wire) {
    const m = w.message;
    if (
      w.dir === 'in' &&
      m &&
      typeof m.method === 'string' &&
      !('id' in m) &&
      m.method !== 'notifications/message'
    )
      rows.push({
        time: w.time,
        kind: 'notification',
        server: w.server,
        text: `${m.method} ${m.params ? JSON.stringify(m.params) : ''}`,
      });
  }
  rows.sort((a, b) => a.time - b.time);
  const shown = rows.filter(
    (r) => !filter || `${r.kind} ${r.level ?? ''} ${r.text}`.toLowerCase().includes(filter.toLowerCase()),
  );
  return (
    <div class="panel">
      <div class="bar">
        <input
          class="filter"
          placeholder="Filter logs and notifications"
          value={filter}
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        />
        {s.servers
          .filter((x) => x.state === 'ready' && x.capabilities?.logging)
          .map((x) => (
            <label class="inline">
              {x.name} level{' '}
              <select
                data-testid="log-level"
                onChange={(e) =>
                  void api('log-level', { server: x.name, level: (e.target as HTMLSelectElement).value })
                }
              >
                <option value="">(server default)</option>
                {LEVELS.map((l) => (
                  <option value={l}>{l}</option>
                ))}
              </select>
            </label>
          ))}
      </div>
      <More
        shown={Math.min(limit, shown.length)}
        total={shown.length}
        onMore={() => setLimit(limit + PAGE_ROWS)}
      />
      <table class="rows" data-testid="log-rows">
        <tbody>
          {shown.slice(-limit).map((r) => (
            <tr class={`${r.kind} ${r.level ?? ''}`}>
              <td class="time">{time(r.time)}</td>
              <td>
                <span class="tag">{r.kind}</span>
              </td>
              <td>{r.server}</td>
              <td>{r.level}</td>
              <td class="text">{r.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length === 0 && <p class="muted">Nothing yet.</p>}
    </div>
  );
}

type Kind = 'request' | 'response' | 'error' | 'notification' | 'invalid' | 'batch';

function kindOf(w: WireEntry): Kind {
  const m = w.message;
  if (w.invalid !== undefined || m === null) return 'invalid';
  if (Array.isArray(m)) return 'batch';
  if (typeof m.method === 'string') return 'id' in m ? 'request' : 'notification';
  return 'error' in m ? 'error' : 'response';
}

/** Saves the messages shown (the filter applies) as a JSON file. */
function exportWire(rows: readonly WireEntry[]): void {
  const body = JSON.stringify({ exportedAt: new Date().toISOString(), messages: rows }, null, 2);
  const url = URL.createObjectURL(new Blob([body], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `mcpkit-wire-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function WireScreen() {
  const s = useStore();
  const [text, setText] = useState('');
  const [dir, setDir] = useState<'' | 'in' | 'out'>('');
  const [kind, setKind] = useState<'' | Kind>('');
  const [server, setServer] = useState('');
  const [open, setOpen] = useState<number | undefined>(undefined);
  const [limit, setLimit] = useState(PAGE_ROWS);
  // A response is named after its request's method.
  const methods = new Map<string, string>();
  for (const w of s.wire) {
    const m = w.message;
    if (m && !Array.isArray(m) && typeof m.method === 'string' && 'id' in m)
      methods.set(`${w.server} ${String(m.id)}`, m.method);
  }
  const needle = text.toLowerCase();
  const methodOf = (w: WireEntry): string => {
    const m = (w.message ?? {}) as Record<string, unknown>;
    return typeof m.method === 'string' ? m.method : (methods.get(`${w.server} ${String(m.id)}`) ?? '');
  };
  const rows = s.wire.filter((w) => {
    if (dir && w.dir !== dir) return false;
    if (server && w.server !== server) return false;
    const k = kindOf(w);
    if (kind && k !== kind) return false;
    return !needle || `${methodOf(w)} ${JSON.stringify(w.message)}`.toLowerCase().includes(needle);
  });
  return (
    <div class="panel">
      <div class="bar">
        <input
          class="filter"
          data-testid="wire-filter"
          placeholder="Filter: method, id, any text"
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <select
          data-testid="wire-dir"
          value={dir}
          onChange={(e) => setDir((e.target as HTMLSelectElement).value as '')}
        >
          <option value="">both ways</option>
          <option value="out">→ to server</option>
          <option value="in">← from server</option>
        </select>
        <select
          data-testid="wire-kind"
          value={kind}
          onChange={(e) => setKind((e.target as HTMLSelectElement).value as '')}
        >
          <option value="">every kind</option>
          {['request', 'response', 'error', 'notification', 'batch', 'invalid'].map((k) => (
            <option value={k}>{k}</option>
          ))}
        </select>
        {s.servers.length > 1 && (
          <select value={server} onChange={(e) => setServer((e.target as HTMLSelectElement).value)}>
            <option value="">every server</option>
            {s.servers.map((x) => (
              <option value={x.name}>{x.name}</option>
            ))}
          </select>
        )}
        <span class="muted" data-testid="wire-count">
          {rows.length} of {s.wire.length}
        </span>
        <button class="small" data-testid="wire-export" onClick={() => exportWire(rows)}>
          Export JSON
        </button>
      </div>
      <More
        shown={Math.min(limit, rows.length)}
        total={rows.length}
        onMore={() => setLimit(limit + PAGE_ROWS)}
      />
      <table class="rows wire" data-testid="wire-rows">
        <tbody>
          {rows.slice(-limit).map((w) => {
            const m = (w.message ?? {}) as Record<string, unknown>;
            const k = kindOf(w);
            const method = methodOf(w);
            return (
              <>
                <tr
                  class={`${k} ${open === w.seq ? 'on' : ''}`}
                  data-kind={k}
                  data-method={method}
                  onClick={() => setOpen(open === w.seq ? undefined : w.seq)}
                >
                  <td class="time">{time(w.time)}</td>
                  <td class="dir">{w.dir === 'out' ? '→' : '←'}</td>
                  <td>{w.server}</td>
                  <td>
                    <span class="tag">{k}</span>
                  </td>
                  <td class="method">{method}</td>
                  <td class="muted">{m.id !== undefined ? `#${String(m.id)}` : ''}</td>
                  <td class="muted">{JSON.stringify(w.message)?.length ?? 0} B</td>
                </tr>
                {open === w.seq && (
                  <tr class="expanded">
                    <td colSpan={7}>
                      {w.invalid && <div class="result error">{w.invalid}</div>}
                      <Json value={w.message} />
                    </td>
                  </tr>
                )}
              </>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
