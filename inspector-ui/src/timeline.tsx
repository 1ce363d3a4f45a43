// The timeline: each request with its answer on one time axis, and under it what belongs
// to it (progress, logs, the server's own requests, MRTR rounds, task polls). Drawn as a
// windowed list (only the rows in view exist in the DOM), so a flood stays cheap; the
// history is a ring buffer, and what fell out of it is said. Recordings are saved and
// loaded here, and two catalogs compared.
import { useMemo, useRef, useState } from 'preact/hooks';
import { api } from './api';
import { Json } from './content';
import { useStore } from './store';
import type { WireEntry } from './store';
import { buildTimeline, durationOf } from '../../src/inspector/timeline-model';
import type { TimelineNode } from '../../src/inspector/timeline-model';
import { parseRecording, recordedCatalog } from '../../src/inspector/recording';
import type { Recording } from '../../src/inspector/recording';
import { diffCatalogs } from '../../src/inspector/catalog-diff';
import type { CatalogLists } from '../../src/inspector/catalog-diff';
import './timeline.css';

/** One row's height in px: fixed, so the window is arithmetic. */
const ROW = 28;
/** Rows drawn beyond the visible ones, above and below. */
const OVERSCAN = 8;
/** Children listed under one request before a "N more" row (a flood of logs under one call). */
const CHILDREN_SHOWN = 200;

interface Row {
  node: TimelineNode;
  depth: number;
  /** For a "more" row: how many children were not listed. */
  more?: number;
  /** The request a child row sits under. */
  parent?: TimelineNode;
  key: string;
}

function flatten(roots: readonly TimelineNode[], collapsed: ReadonlySet<number>): Row[] {
  const rows: Row[] = [];
  for (const node of roots) {
    rows.push({ node, depth: 0, key: `r${node.seq}` });
    if (collapsed.has(node.seq)) continue;
    const shown = node.children.slice(0, CHILDREN_SHOWN);
    for (const c of shown) rows.push({ node: c, depth: 1, key: `c${c.seq}`, parent: node });
    if (node.children.length > shown.length)
      rows.push({ node, depth: 1, more: node.children.length - shown.length, key: `m${node.seq}` });
  }
  return rows;
}

function target(node: TimelineNode): string {
  const p = (node.request.message as { params?: Record<string, unknown> } | null)?.params;
  if (!p) return '';
  const t = p.name ?? p.uri ?? (p.ref as { name?: string } | undefined)?.name ?? p.level ?? p.taskId;
  if (node.kind === 'progress')
    return `${String(p.progress)}${p.total !== undefined ? `/${String(p.total)}` : ''}`;
  if (node.kind === 'log') return typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
  return typeof t === 'string' || typeof t === 'number' ? String(t) : '';
}

const STATUS_TEXT: Record<string, string> = {
  pending: '…',
  ok: 'result',
  error: 'error',
  'tool-error': 'isError',
  'input-required': 'input required',
  task: 'task',
};

function status(node: TimelineNode): string {
  if (node.status === undefined) return '';
  const s = STATUS_TEXT[node.status] ?? node.status;
  const text = node.status === 'error' && node.code !== undefined ? `${s} ${node.code}` : s;
  return node.final && node.final !== node.status
    ? `${text} → ${STATUS_TEXT[node.final] ?? node.final}`
    : text;
}

function save(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function Detail({ node }: { node: TimelineNode }) {
  const d = durationOf(node);
  return (
    <div class="tl-detail" data-testid="timeline-detail">
      <h3>
        {node.method} <span class="muted">{target(node)}</span>
        {d !== undefined && <span class="muted"> · {d} ms</span>}
        {node.inferred && (
          <span class="muted" title="nothing on the wire links it: placed under the request running then">
            {' '}
            · placed by time
          </span>
        )}
      </h3>
      <div class="tl-pair">
        <div>
          <div class="muted">{node.request.dir === 'out' ? '→ sent' : '← received'}</div>
          <Json value={node.request.message} />
        </div>
        {node.response && (
          <div>
            <div class="muted">{node.response.dir === 'out' ? '→ answered' : '← answer'}</div>
            <Json value={node.response.message} />
          </div>
        )}
      </div>
    </div>
  );
}

export function TimelineScreen() {
  const s = useStore();
  const [recording, setRecording] = useState<{ name: string; rec: Recording } | undefined>(undefined);
  const [loadError, setLoadError] = useState('');
  const [source, setSource] = useState<'live' | 'recording'>('live');
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [selected, setSelected] = useState(0);
  const [open, setOpen] = useState<TimelineNode | undefined>(undefined);
  const [scroll, setScroll] = useState(0);
  const [height, setHeight] = useState(560);
  const list = useRef<HTMLDivElement>(null);

  const entries = source === 'recording' && recording ? recording.rec.messages : s.wire;
  const roots = useMemo(() => buildTimeline(entries as readonly WireEntry[]), [entries]);
  const needle = filter.toLowerCase();
  const shownRoots = useMemo(
    () =>
      needle
        ? roots.filter((r) => `${r.server} ${r.method} ${target(r)}`.toLowerCase().includes(needle))
        : roots,
    [roots, needle],
  );
  const rows = useMemo(() => flatten(shownRoots, collapsed), [shownRoots, collapsed]);
  // One time axis for every row: from the first start to the last answer.
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const r of shownRoots) {
    t0 = Math.min(t0, r.start);
    t1 = Math.max(t1, r.start + (durationOf(r) ?? 0));
  }
  const span = Math.max(1, t1 - t0);
  const dropped = source === 'live' && s.wire.length > 0 ? s.wire[0]!.seq - 1 : 0;

  const first = Math.max(0, Math.floor(scroll / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scroll + height) / ROW) + OVERSCAN);
  const cur = Math.min(selected, Math.max(0, rows.length - 1));

  const toggle = (node: TimelineNode): void => {
    const next = new Set(collapsed);
    if (next.has(node.seq)) next.delete(node.seq);
    else next.add(node.seq);
    setCollapsed(next);
  };
  const select = (i: number): void => {
    const to = Math.max(0, Math.min(rows.length - 1, i));
    setSelected(to);
    const el = list.current;
    if (!el) return;
    if (to * ROW < el.scrollTop) el.scrollTop = to * ROW;
    else if ((to + 1) * ROW > el.scrollTop + el.clientHeight) el.scrollTop = (to + 1) * ROW - el.clientHeight;
  };
  const onKey = (e: KeyboardEvent): void => {
    const row = rows[cur];
    const page = Math.max(1, Math.floor(height / ROW) - 1);
    const moves: Record<string, number> = {
      ArrowDown: cur + 1,
      ArrowUp: cur - 1,
      PageDown: cur + page,
      PageUp: cur - page,
      Home: 0,
      End: rows.length - 1,
    };
    if (e.key in moves) select(moves[e.key]!);
    else if (e.key === 'Enter' && row) setOpen(open === row.node ? undefined : row.node);
    else if (
      (e.key === 'ArrowLeft' || e.key === 'ArrowRight') &&
      row?.depth === 0 &&
      row.node.children.length
    )
      toggle(row.node);
    else if (e.key === 'Escape') setOpen(undefined);
    else return;
    e.preventDefault();
  };

  const load = async (file: File): Promise<void> => {
    try {
      const rec = parseRecording(await file.text());
      setRecording({ name: file.name, rec });
      setSource('recording');
      setLoadError(rec.warnings.join('; '));
    } catch (e) {
      setLoadError(`${file.name}: ${(e as Error).message}`);
    }
  };

  return (
    <div class="panel timeline">
      <div class="bar">
        <input
          class="filter"
          data-testid="timeline-filter"
          placeholder="Filter: server, method, tool"
          aria-label="Filter the timeline"
          value={filter}
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        />
        <select
          data-testid="timeline-source"
          aria-label="Whose timeline"
          value={source}
          onChange={(e) => setSource((e.target as HTMLSelectElement).value as 'live')}
        >
          <option value="live">this session</option>
          {recording && <option value="recording">recording: {recording.name}</option>}
        </select>
        <button
          class="small"
          data-testid="download-recording"
          onClick={async () => {
            const r = await api<{ text: string }>('recording', {});
            if (r.error) setLoadError(r.error.message);
            else
              save(
                r.text,
                `mcpkit-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`,
                'application/jsonl',
              );
          }}
        >
          Download recording
        </button>
        <label class="small button-like">
          Load recording…
          <input
            type="file"
            accept=".jsonl,.json,application/jsonl"
            data-testid="load-recording"
            onChange={(e) => {
              const f = (e.target as HTMLInputElement).files?.[0];
              if (f) void load(f);
            }}
          />
        </label>
        <span class="muted" data-testid="timeline-count">
          {shownRoots.length} requests · {entries.length} messages
        </span>
      </div>
      {loadError && (
        <div class="result error" data-testid="load-error" role="alert">
          {loadError}
        </div>
      )}
      {dropped > 0 && (
        <p class="muted" data-testid="dropped">
          {dropped.toLocaleString()} older messages dropped (the newest {entries.length.toLocaleString()} are
          kept); record with <code>mcpkit inspect --record FILE</code> to keep them all.
        </p>
      )}
      <div class="tl-head" aria-hidden="true">
        <span class="tl-time">start</span>
        <span class="tl-method">request</span>
        <span class="tl-status">outcome</span>
        <span class="tl-dur">ms</span>
        <span class="tl-axis">time axis ({span} ms)</span>
      </div>
      <div
        class="tl-list"
        ref={list}
        tabIndex={0}
        role="tree"
        aria-label="Timeline: arrows move, Enter opens, left/right fold"
        aria-activedescendant={rows[cur] ? `tl-${rows[cur]!.key}` : undefined}
        data-testid="timeline"
        onScroll={(e) => {
          const el = e.target as HTMLDivElement;
          setScroll(el.scrollTop);
          if (el.clientHeight !== height) setHeight(el.clientHeight);
        }}
        onKeyDown={onKey}
      >
        <div style={{ height: `${rows.length * ROW}px`, position: 'relative' }}>
          {rows.slice(first, last).map((row, k) => {
            const i = first + k;
            const n = row.node;
            const d = durationOf(n);
            const left = ((n.start - t0) / span) * 100;
            const width = d === undefined ? 0 : Math.max(0.4, (d / span) * 100);
            return (
              <div
                id={`tl-${row.key}`}
                key={row.key}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-selected={i === cur}
                aria-expanded={row.depth === 0 && n.children.length ? !collapsed.has(n.seq) : undefined}
                class={`tl-row depth${row.depth} ${n.kind} ${n.status ?? ''} ${i === cur ? 'on' : ''}`}
                style={{ top: `${i * ROW}px` }}
                data-kind={row.more ? 'more' : n.kind}
                data-method={n.method}
                data-server={n.server}
                onClick={() => {
                  setSelected(i);
                  if (row.more) return;
                  setOpen(open === n ? undefined : n);
                }}
              >
                {row.more ? (
                  <span class="muted tl-more">
                    {row.more.toLocaleString()} more under this request (open it to see each in the Wire
                    screen)
                  </span>
                ) : (
                  <>
                    <span class="tl-time">
                      {row.parent ? `+${n.start - row.parent.start}` : n.start - t0}
                    </span>
                    <span class="tl-method">
                      {row.depth === 0 && n.children.length > 0 && (
                        <button
                          class="tl-fold"
                          tabIndex={-1}
                          aria-hidden="true"
                          onClick={(e) => {
                            e.stopPropagation();
                            toggle(n);
                          }}
                        >
                          {collapsed.has(n.seq) ? '▸' : '▾'}
                        </button>
                      )}
                      <span class="tag">{n.kind}</span> {s.servers.length > 1 ? `${n.server} ` : ''}
                      <b>{n.method}</b> <span class="muted">{target(n)}</span>
                      {row.depth === 0 && n.children.length > 0 && (
                        <span class="muted"> ({n.children.length})</span>
                      )}
                    </span>
                    <span class={`tl-status ${n.final ?? n.status ?? ''}`}>{status(n)}</span>
                    <span class="tl-dur">{d ?? ''}</span>
                    <span class="tl-axis">
                      <span
                        class={`tl-bar ${n.final ?? n.status ?? 'mark'}`}
                        data-testid={row.depth === 0 ? 'timeline-bar' : undefined}
                        style={{ left: `${left}%`, width: d === undefined ? '3px' : `${width}%` }}
                      />
                    </span>
                  </>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {rows.length === 0 && <p class="muted">Nothing yet: call a tool and its exchange shows here.</p>}
      {open && <Detail node={open} />}
      <CatalogDiff recording={recording} />
    </div>
  );
}

/** The catalog of one side: a connected server's live one, or what a recording saw. */
function catalogOf(
  key: string,
  s: ReturnType<typeof useStore>,
  recording: { rec: Recording } | undefined,
): CatalogLists | undefined {
  const [kind, ...rest] = key.split(':');
  const name = rest.join(':');
  if (kind === 'recording') return recording ? recordedCatalog(recording.rec, name) : undefined;
  if (kind !== 'server') return undefined;
  const c = s.catalog;
  return {
    tools: c.tools.filter((t) => t.server === name).map((t) => t.definition),
    resources: c.resources.filter((r) => r.server === name).map((r) => r.definition),
    templates: c.templates.filter((r) => r.server === name).map((r) => r.definition),
    prompts: c.prompts.filter((p) => p.server === name).map((p) => p.definition),
  };
}

function CatalogDiff({ recording }: { recording: { name: string; rec: Recording } | undefined }) {
  const s = useStore();
  const sources: Array<[string, string]> = [
    ...s.servers.map((x): [string, string] => [`server:${x.name}`, `${x.name} (live)`]),
    ...(recording
      ? [...recording.rec.servers.keys()].map((n): [string, string] => [
          `recording:${n}`,
          `${n} (${recording.name})`,
        ])
      : []),
  ];
  const [a, setA] = useState('');
  const [b, setB] = useState('');
  const left = a || sources[0]?.[0] || '';
  const right = b || sources[1]?.[0] || '';
  const before = catalogOf(left, s, recording);
  const after = catalogOf(right, s, recording);
  const changes = before && after && left !== right ? diffCatalogs(before, after) : undefined;
  return (
    <section class="tl-catalog" data-testid="catalog-diff">
      <h3>Catalog diff</h3>
      {sources.length < 2 ? (
        <p class="muted">Connect a second server, or load a recording, to compare catalogs.</p>
      ) : (
        <>
          <div class="bar">
            <select
              aria-label="Before"
              data-testid="diff-before"
              value={left}
              onChange={(e) => setA((e.target as HTMLSelectElement).value)}
            >
              {sources.map(([k, label]) => (
                <option value={k}>{label}</option>
              ))}
            </select>
            →
            <select
              aria-label="After"
              data-testid="diff-after"
              value={right}
              onChange={(e) => setB((e.target as HTMLSelectElement).value)}
            >
              {sources.map(([k, label]) => (
                <option value={k}>{label}</option>
              ))}
            </select>
          </div>
          {changes && changes.length === 0 && (
            <p class="muted">The same tools, resources, templates and prompts.</p>
          )}
          {changes && changes.length > 0 && (
            <ul class="tl-changes">
              {changes.map((c) => (
                <li data-change={c.change} data-key={c.key}>
                  <span class={`tag ${c.change === 'removed' ? 'bad' : ''}`}>{c.change}</span> {c.kind}{' '}
                  <b>{c.key}</b>
                  {c.fields && <span class="muted"> ({c.fields.join(', ')})</span>}
                  {c.differences && (
                    <ul class="muted">
                      {c.differences.slice(0, 6).map((d) => (
                        <li>
                          {d.kind} <code>{d.path}</code>
                          {d.kind === 'changed' && (
                            <>
                              : <code>{short(d.before)}</code> → <code>{short(d.after)}</code>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function short(v: unknown): string {
  const t = JSON.stringify(v) ?? 'undefined';
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}
