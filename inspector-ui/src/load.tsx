// The Load view: `mcpkit load` from the page. N clients (each its own connection) call one
// tool for M calls or S seconds; the latency per time bucket is drawn as it arrives (p50 and
// p95, buckets with errors marked), then the summary. Stop ends the run and still reports.
import { useState } from 'preact/hooks';
import { api } from './api';
import { SchemaForm, initialValue } from './schema-form';
import type { Schema } from './schema-form';
import { changed, screenEvents, useStore } from './store';
import './load-lint.css';
// Types only: the page shows what the shared load engine reports.
import type { LoadBucket, LoadReport } from '../../src/host/load/load-run';

type Bucket = LoadBucket;
type Report = LoadReport;

interface Run {
  id: string;
  server: string;
  tool: string;
  connected?: number;
  buckets: Bucket[];
  report?: Report;
  error?: string;
}

/** The latest run, kept across screen changes (a run goes on while another screen is shown). */
let run: Run | undefined;
let nextRun = 1;

screenEvents.set('load', (e) => {
  if (!run || e.runId !== run.id) return;
  if (typeof e.started === 'number') run.connected = e.started;
  if (e.bucket) run.buckets = [...run.buckets, e.bucket as Bucket];
  if (e.report) run.report = e.report as Report;
});

async function start(
  server: string,
  tool: string,
  args: Record<string, unknown>,
  clients: number,
  mode: 'calls' | 'duration',
  amount: number,
): Promise<void> {
  const id = `load-${Date.now()}-${nextRun++}`;
  run = { id, server, tool, buckets: [] };
  changed();
  const answer = await api<{ report?: Report }>('load', {
    runId: id,
    server,
    tool,
    arguments: args,
    clients,
    ...(mode === 'calls' ? { calls: amount } : { durationMs: Math.round(amount * 1000) }),
  });
  if (run?.id !== id) return;
  if (answer.error) run.error = answer.error.message;
  else if (answer.report) run.report = answer.report;
  changed();
}

const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

/** p50 and p95 per bucket over time; a red mark above each bucket that had errors. */
function Chart({
  buckets,
  width = 760,
  height = 240,
}: {
  buckets: Bucket[];
  width?: number;
  height?: number;
}) {
  const pad = { l: 48, r: 12, t: 14, b: 26 };
  const w = width - pad.l - pad.r;
  const h = height - pad.t - pad.b;
  const tMax = Math.max(1, ...buckets.map((b) => b.t)) * 1.02;
  const yMax = Math.max(0.01, ...buckets.map((b) => b.p95)) * 1.15;
  const x = (t: number): number => pad.l + (t / tMax) * w;
  const y = (ms: number): number => pad.t + h - (ms / yMax) * h;
  const line = (key: 'p50' | 'p95'): string =>
    buckets.map((b) => `${x(b.t).toFixed(1)},${y(b[key]).toFixed(1)}`).join(' ');
  const ticks = [0, 0.5, 1].map((f) => f * yMax);
  return (
    <svg
      class="load-chart"
      data-testid="load-chart"
      data-points={buckets.length}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={`Latency over time: ${buckets.length} buckets`}
    >
      <rect x={pad.l} y={pad.t} width={w} height={h} class="plot" />
      {ticks.map((v) => (
        <>
          <line x1={pad.l} x2={pad.l + w} y1={y(v)} y2={y(v)} class="grid" />
          <text x={pad.l - 6} y={y(v) + 4} text-anchor="end" class="axis">
            {fmt(v)}
          </text>
        </>
      ))}
      <text x={pad.l} y={height - 6} class="axis">
        0 s
      </text>
      <text x={pad.l + w} y={height - 6} text-anchor="end" class="axis">
        {(tMax / 1000).toFixed(1)} s
      </text>
      <text x={pad.l + 4} y={pad.t - 3} class="axis">
        ms
      </text>
      <polyline points={line('p95')} class="p95" data-testid="load-p95" />
      <polyline points={line('p50')} class="p50" data-testid="load-p50" />
      {buckets
        .filter((b) => b.errors > 0)
        .map((b) => (
          <circle cx={x(b.t)} cy={pad.t + 4} r={4} class="err" data-testid="load-error-mark">
            <title>
              {b.errors} error{b.errors === 1 ? '' : 's'} at {(b.t / 1000).toFixed(1)} s
            </title>
          </circle>
        ))}
    </svg>
  );
}

function Summary({ r }: { r: Report }) {
  const l = r.latencyMs;
  const failures = Object.entries(r.errors);
  return (
    <div class="load-summary" data-testid="load-summary">
      <div class="stats">
        <div>
          <strong data-testid="load-rate">{r.callsPerSecond.toFixed(1)}</strong> calls/s
        </div>
        <div>
          <strong>{r.calls}</strong> calls in {(r.durationMs / 1000).toFixed(2)} s from {r.clients} client
          {r.clients === 1 ? '' : 's'}
        </div>
        <div>
          p50 <strong>{fmt(l.p50)}</strong> · p95 <strong>{fmt(l.p95)}</strong> · p99{' '}
          <strong>{fmt(l.p99)}</strong> · max <strong>{fmt(l.max)}</strong> ms
        </div>
        <div>
          ok <strong>{r.ok}</strong> · isError <strong data-testid="load-tool-errors">{r.toolErrors}</strong>{' '}
          · stopped by <span data-testid="load-stopped-by">{r.stoppedBy}</span>
        </div>
      </div>
      {failures.length > 0 && (
        <table class="load-errors" data-testid="load-errors">
          <thead>
            <tr>
              <th>error code</th>
              <th>calls</th>
            </tr>
          </thead>
          <tbody>
            {failures.map(([code, n]) => (
              <tr>
                <td>
                  <code>{code}</code>
                </td>
                <td>{n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function LoadScreen() {
  const s = useStore();
  const ready = s.servers.filter((x) => x.state === 'ready').map((x) => x.name);
  const [server, setServer] = useState<string>(run?.server ?? ready[0] ?? '');
  const chosenServer = ready.includes(server) ? server : (ready[0] ?? '');
  const tools = s.catalog.tools.filter((t) => t.server === chosenServer);
  const [toolName, setToolName] = useState<string>(run?.tool ?? '');
  const tool = tools.find((t) => t.name === toolName) ?? tools[0];
  const schema = (tool?.definition.inputSchema ?? { type: 'object' }) as Schema;
  const [args, setArgs] = useState<{ key: string; value: Record<string, unknown> } | undefined>(undefined);
  const key = `${chosenServer}/${tool?.name ?? ''}`;
  const value =
    args?.key === key ? args.value : ((initialValue(schema, schema) ?? {}) as Record<string, unknown>);
  const [clients, setClients] = useState(4);
  const [mode, setMode] = useState<'calls' | 'duration'>('duration');
  const [amount, setAmount] = useState(5);
  const running = run !== undefined && !run.report && !run.error;
  return (
    <div class="split load" data-testid="load-screen">
      <aside class="list">
        <form
          class="args"
          onSubmit={(e) => {
            e.preventDefault();
            if (tool && !running) void start(chosenServer, tool.name, value, clients, mode, amount);
          }}
        >
          <label>
            Server
            <select
              data-testid="load-server"
              value={chosenServer}
              onChange={(e) => setServer((e.target as HTMLSelectElement).value)}
            >
              {ready.map((n) => (
                <option value={n}>{n}</option>
              ))}
            </select>
          </label>
          <label>
            Tool
            <select
              data-testid="load-tool"
              value={tool?.name ?? ''}
              onChange={(e) => setToolName((e.target as HTMLSelectElement).value)}
            >
              {tools.map((t) => (
                <option value={t.name}>{t.name}</option>
              ))}
            </select>
          </label>
          {tool && (
            <SchemaForm
              key={key}
              schema={schema}
              value={value}
              onChange={(v) => setArgs({ key, value: v })}
            />
          )}
          <label>
            Clients (each its own connection)
            <input
              type="number"
              min={1}
              max={64}
              data-testid="load-clients"
              value={clients}
              onInput={(e) => setClients(Math.max(1, Number((e.target as HTMLInputElement).value) || 1))}
            />
          </label>
          <fieldset class="mode">
            <legend>Stop after</legend>
            <label>
              <input
                type="radio"
                name="load-mode"
                data-testid="load-mode-calls"
                checked={mode === 'calls'}
                onChange={() => {
                  setMode('calls');
                  setAmount(1000);
                }}
              />{' '}
              calls
            </label>{' '}
            <label>
              <input
                type="radio"
                name="load-mode"
                data-testid="load-mode-duration"
                checked={mode === 'duration'}
                onChange={() => {
                  setMode('duration');
                  setAmount(5);
                }}
              />{' '}
              seconds
            </label>
            <input
              type="number"
              min={mode === 'calls' ? 1 : 0.1}
              step={mode === 'calls' ? 1 : 0.1}
              data-testid="load-amount"
              aria-label={mode === 'calls' ? 'calls in total' : 'seconds'}
              value={amount}
              onInput={(e) => setAmount(Number((e.target as HTMLInputElement).value) || 1)}
            />
          </fieldset>
          <div class="row">
            <button type="submit" class="primary" data-testid="load-start" disabled={!tool || running}>
              Start
            </button>{' '}
            <button
              type="button"
              data-testid="load-stop"
              disabled={!running}
              onClick={() => run && void api('load-stop', { runId: run.id })}
            >
              Stop
            </button>
          </div>
        </form>
      </aside>
      <section class="detail">
        {!run && <p class="muted">Choose a tool and its arguments, then Start.</p>}
        {run && (
          <div data-testid="load-run" data-state={run.error ? 'error' : run.report ? 'done' : 'running'}>
            <h2>
              Load on <code>{run.tool}</code> <span class="muted">({run.server})</span>{' '}
              {running && (
                <span class="tag busy">
                  {run.connected === undefined ? 'connecting…' : `running, ${run.connected} clients`}
                </span>
              )}
            </h2>
            <Chart buckets={run.buckets} />
            <p class="legend muted">
              <span class="key p50" /> p50 <span class="key p95" /> p95 <span class="key err" /> errors in the
              bucket
            </p>
            {run.error && (
              <div class="result error" data-testid="load-error">
                {run.error}
              </div>
            )}
            {run.report && <Summary r={run.report} />}
          </div>
        )}
      </section>
    </div>
  );
}
