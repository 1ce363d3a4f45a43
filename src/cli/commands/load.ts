import type { Client } from '../../client/client.js';
import { LocalError, WireError } from '../../jsonrpc/index.js';
import { parseArgsJson } from '../arguments.js';
import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { LatencyReservoir } from '../load/latency-reservoir.js';
import { suggestion } from '../suggest.js';

export const loadHelp = `Usage: mcpkit load --tool NAME [--args JSON] (--calls M | --duration S) [--clients N] <target>

Calls one tool over and over from N concurrent clients (each its own connection) and
reports calls/s, latency p50/p95/p99/max in ms, and failures: JSON-RPC errors by code,
transport failures by local error code, and isError results counted apart.
Latencies are kept in a 10,000-sample uniform reservoir; count and max are exact.
Ctrl-C stops early and still prints the report. Exit code 1 when any call failed.

Options:
  --tool NAME      the tool to call
  --args JSON      its arguments, as one JSON object (default {})
  --calls M        stop after exactly M calls in total
  --duration S     stop after S seconds (default 10 when --calls is not given)
  --clients N      concurrent clients (default 1)
  --warmup K       K calls per client before the clock starts, not counted (default 0);
                   a server's first call can be slow (lazy loading, compiling)

With --json: one object {tool, clients, calls, ok, toolErrors, errors: {code: count},
durationMs, callsPerSecond, latencyMs: {p50, p95, p99, max, mean}, samples, stoppedBy}.

${TARGET_HELP}

Examples:
  mcpkit load --tool echo --args '{"text":"hi"}' --calls 1000 --clients 8 -- node server.js
  mcpkit load --tool add --args '{"a":1,"b":2}' --duration 30 --url http://127.0.0.1:3000/mcp`;

/** What `mcpkit load --json` prints. */
export interface LoadReport {
  tool: string;
  clients: number;
  /** Calls finished (successful or not). */
  calls: number;
  /** Calls answered with a result that is not `isError`. */
  ok: number;
  /** Calls answered with `isError: true`. */
  toolErrors: number;
  /** Failed calls by JSON-RPC code (`-32602`) or local error code (`Timeout`, `ConnectionClosed`…). */
  errors: Record<string, number>;
  durationMs: number;
  callsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  /** Latency samples held for the percentiles (at most 10,000). */
  samples: number;
  stoppedBy: 'calls' | 'duration' | 'interrupt';
}

function positiveInt(raw: unknown, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new CliFailure(`${flag} must be a positive integer, not "${String(raw)}"`, ExitCode.Usage);
  return n;
}

export async function load(argv: string[]): Promise<number> {
  const { global, values, help } = parseCommand(
    argv,
    {
      tool: { type: 'string' },
      args: { type: 'string' },
      calls: { type: 'string' },
      duration: { type: 'string' },
      clients: { type: 'string' },
      warmup: { type: 'string' },
    },
    'mcpkit load --tool NAME <target>',
  );
  if (help) {
    console.log(loadHelp);
    return ExitCode.Ok;
  }
  const tool = values.tool as string | undefined;
  if (!tool) throw new CliFailure('Which tool? Pass --tool NAME', ExitCode.Usage);
  const args = values.args !== undefined ? parseArgsJson(values.args as string) : {};
  const clients = positiveInt(values.clients, '--clients') ?? 1;
  const calls = positiveInt(values.calls, '--calls');
  const warmup = values.warmup === '0' ? 0 : (positiveInt(values.warmup, '--warmup') ?? 0);
  let durationS: number | undefined;
  if (values.duration !== undefined) {
    durationS = Number(values.duration);
    if (!Number.isFinite(durationS) || durationS <= 0)
      throw new CliFailure(
        `--duration must be a positive number of seconds, not "${String(values.duration)}"`,
        ExitCode.Usage,
      );
  }
  if (calls !== undefined && durationS !== undefined)
    throw new CliFailure('Choose one of --calls and --duration', ExitCode.Usage);
  if (calls === undefined && durationS === undefined) durationS = 10;

  const stop = new AbortController();
  let stoppedBy: LoadReport['stoppedBy'] = calls !== undefined ? 'calls' : 'duration';
  const onSigint = (): void => {
    stoppedBy = 'interrupt';
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  const open: Client[] = [];
  try {
    // Connect every client first: connection time is not call latency. No terminal
    // handlers: a load run must not stop to ask questions.
    for (let i = 0; i < clients; i++) {
      if (stop.signal.aborted) break;
      open.push(await openClient(global, {}));
    }
    const names: string[] = [];
    if (open[0]) for await (const t of open[0].tools()) names.push(t.name);
    if (open[0] && !names.includes(tool))
      throw new CliFailure(
        `The server has no tool named "${tool}"${suggestion(tool, names)} (see: mcpkit tools)`,
        ExitCode.Usage,
      );

    const params = { name: tool, arguments: args };
    await Promise.all(
      open.map(async (client) => {
        for (let i = 0; i < warmup && !stop.signal.aborted; i++)
          await client.callTool(params, { signal: stop.signal }).catch(() => undefined);
      }),
    );
    // Tells a watcher (or a test) when Ctrl-C starts to mean "stop and report".
    process.stderr.write(`mcpkit load: ${open.length} client(s) connected, calling ${tool}\n`);
    const latency = new LatencyReservoir(10_000);
    const errors: Record<string, number> = {};
    let claimed = 0;
    let ok = 0;
    let toolErrors = 0;
    const started = performance.now();
    const deadline = durationS !== undefined ? started + durationS * 1000 : Infinity;
    const timer = durationS !== undefined ? setTimeout(() => stop.abort(), durationS * 1000) : undefined;
    const worker = async (client: Client): Promise<void> => {
      while (
        !stop.signal.aborted &&
        (calls === undefined || claimed < calls) &&
        performance.now() < deadline
      ) {
        claimed++;
        const t0 = performance.now();
        try {
          const r = await client.callTool(params, { signal: stop.signal });
          if (r.isError) toolErrors++;
          else ok++;
        } catch (e) {
          // A call cut short by the stop itself is not a failure of the server.
          if (stop.signal.aborted) {
            claimed--;
            return;
          }
          const code = e instanceof WireError ? String(e.code) : e instanceof LocalError ? e.code : 'Other';
          errors[code] = (errors[code] ?? 0) + 1;
        }
        latency.add(performance.now() - t0);
      }
    };
    await Promise.all(open.map(worker));
    clearTimeout(timer);
    const durationMs = performance.now() - started;
    const report: LoadReport = {
      tool,
      clients: open.length,
      calls: latency.count,
      ok,
      toolErrors,
      errors,
      durationMs: round(durationMs),
      callsPerSecond: round(durationMs > 0 ? (latency.count * 1000) / durationMs : 0),
      latencyMs: mapValues(latency.summary(), round),
      samples: latency.held,
      stoppedBy,
    };
    console.log(global.json ? JSON.stringify(report) : formatReport(report));
    const failed = report.toolErrors + Object.values(errors).reduce((a, b) => a + b, 0);
    return failed > 0 ? ExitCode.ToolError : ExitCode.Ok;
  } finally {
    process.off('SIGINT', onSigint);
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function mapValues<T extends Record<string, number>>(o: T, f: (n: number) => number): T {
  const out = {} as Record<string, number>;
  for (const [k, v] of Object.entries(o)) out[k] = f(v);
  return out as T;
}

function formatReport(r: LoadReport): string {
  const l = r.latencyMs;
  const lines = [
    `${r.calls} calls to ${r.tool} from ${r.clients} client${r.clients === 1 ? '' : 's'} in ${(r.durationMs / 1000).toFixed(2)} s (stopped by ${r.stoppedBy})`,
    `  ${r.callsPerSecond.toFixed(1)} calls/s`,
    `  latency ms: p50 ${l.p50.toFixed(2)}  p95 ${l.p95.toFixed(2)}  p99 ${l.p99.toFixed(2)}  max ${l.max.toFixed(2)}  mean ${l.mean.toFixed(2)}`,
    `  ok ${r.ok}  isError ${r.toolErrors}`,
  ];
  for (const [code, n] of Object.entries(r.errors)) lines.push(`  error ${code}: ${n}`);
  return lines.join('\n');
}
