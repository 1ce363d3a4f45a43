import { runLoad } from '../../host/load/load-run.js';
import type { LoadReport } from '../../host/load/load-run.js';
import { parseArgsJson } from '../arguments.js';
import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
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
export type { LoadReport };

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
  const onSigint = (): void => stop.abort();
  process.on('SIGINT', onSigint);
  try {
    // No terminal handlers: a load run must not stop to ask questions.
    const report = await runLoad(() => openClient(global, {}), {
      tool,
      args,
      clients,
      ...(calls !== undefined ? { calls } : {}),
      ...(durationS !== undefined ? { durationMs: durationS * 1000 } : {}),
      warmup,
      signal: stop.signal,
      verifyTool: (names) => {
        if (!names.includes(tool))
          throw new CliFailure(
            `The server has no tool named "${tool}"${suggestion(tool, names)} (see: mcpkit tools)`,
            ExitCode.Usage,
          );
      },
      // Tells a watcher (or a test) when Ctrl-C starts to mean "stop and report".
      onstart: (n) => process.stderr.write(`mcpkit load: ${n} client(s) connected, calling ${tool}\n`),
    });
    console.log(global.json ? JSON.stringify(report) : formatReport(report));
    const failed = report.toolErrors + Object.values(report.errors).reduce((a, b) => a + b, 0);
    return failed > 0 ? ExitCode.ToolError : ExitCode.Ok;
  } finally {
    process.off('SIGINT', onSigint);
  }
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
