/**
 * The load engine behind `mcpkit load` and the inspector's Load view: N clients, each its
 * own connection, call one tool over and over for M calls or S seconds. Latencies go to a
 * bounded reservoir for the percentiles; with `onbucket`, each time bucket's own p50/p95 and
 * errors are reported as the run goes (the latency-over-time chart).
 */
import type { Client } from '../../client/client.js';
import { LocalError, WireError } from '../../jsonrpc/index.js';
import { LatencyReservoir } from './latency-reservoir.js';

/** What a load run reports (`mcpkit load --json` prints it). */
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

/** One time bucket of a run: the calls that finished in it. */
export interface LoadBucket {
  /** The bucket's start, in ms since the clock started. */
  t: number;
  calls: number;
  /** Failed calls and `isError` results in the bucket. */
  errors: number;
  p50: number;
  p95: number;
  max: number;
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  tool: string;
  args?: Record<string, unknown>;
  /** Concurrent clients, each its own connection (default 1). */
  clients?: number;
  /** Stop after exactly this many calls in total. */
  calls?: number;
  /** Stop after this long (default 10 s when `calls` is not given). */
  durationMs?: number;
  /** Calls per client before the clock starts, not counted (default 0). */
  warmup?: number;
  /** Stops the run early; the report still comes, `stoppedBy: 'interrupt'`. */
  signal?: AbortSignal;
  /** The time bucket's width for `onbucket` (default 250 ms). */
  bucketMs?: number;
  /** Each time bucket as it closes. */
  onbucket?: (bucket: LoadBucket) => void;
  /** Every client is connected and warmed up: the clock starts. */
  onstart?: (clients: number) => void;
  /** Checks the tool is there, given the first client's tool names (default: throws when it is not). */
  verifyTool?: (names: readonly string[]) => void;
}

/**
 * Runs the load: connects `clients` clients with `open` (connection time is not call
 * latency), calls the tool until the count, the duration or the signal stops it, closes
 * every client and reports.
 */
export async function runLoad(open: () => Promise<Client>, options: LoadOptions): Promise<LoadReport> {
  const { tool, calls } = options;
  const clients = options.clients ?? 1;
  const warmup = options.warmup ?? 0;
  const durationMs = options.durationMs ?? (calls === undefined ? 10_000 : undefined);
  const outer = options.signal;
  const stop = new AbortController();
  const onouter = (): void => stop.abort();
  if (outer?.aborted) stop.abort();
  outer?.addEventListener('abort', onouter);
  const opened: Client[] = [];
  try {
    for (let i = 0; i < clients; i++) {
      if (stop.signal.aborted) break;
      opened.push(await open());
    }
    if (opened[0]) {
      const names: string[] = [];
      for await (const t of opened[0].tools()) names.push(t.name);
      if (options.verifyTool) options.verifyTool(names);
      else if (!names.includes(tool)) throw new Error(`The server has no tool named "${tool}"`);
    }
    const params = { name: tool, arguments: options.args ?? {} };
    await Promise.all(
      opened.map(async (client) => {
        for (let i = 0; i < warmup && !stop.signal.aborted; i++)
          await client.callTool(params, { signal: stop.signal }).catch(() => undefined);
      }),
    );
    options.onstart?.(opened.length);

    const latency = new LatencyReservoir(10_000);
    const errors: Record<string, number> = {};
    let claimed = 0;
    let ok = 0;
    let toolErrors = 0;
    const started = performance.now();
    const deadline = durationMs !== undefined ? started + durationMs : Infinity;
    const timer = durationMs !== undefined ? setTimeout(() => stop.abort(), durationMs) : undefined;
    const buckets = options.onbucket
      ? new Buckets(options.bucketMs ?? 250, started, options.onbucket)
      : undefined;
    const worker = async (client: Client): Promise<void> => {
      while (
        !stop.signal.aborted &&
        (calls === undefined || claimed < calls) &&
        performance.now() < deadline
      ) {
        claimed++;
        const t0 = performance.now();
        let failed = false;
        try {
          const r = await client.callTool(params, { signal: stop.signal });
          if (r.isError) {
            toolErrors++;
            failed = true;
          } else ok++;
        } catch (e) {
          // A call cut short by the stop itself is not a failure of the server.
          if (stop.signal.aborted) {
            claimed--;
            return;
          }
          const code = e instanceof WireError ? String(e.code) : e instanceof LocalError ? e.code : 'Other';
          errors[code] = (errors[code] ?? 0) + 1;
          failed = true;
        }
        const t1 = performance.now();
        latency.add(t1 - t0);
        buckets?.add(t1, t1 - t0, failed);
      }
    };
    await Promise.all(opened.map(worker));
    clearTimeout(timer);
    const elapsed = performance.now() - started;
    buckets?.flush(performance.now());
    return {
      tool,
      clients: opened.length,
      calls: latency.count,
      ok,
      toolErrors,
      errors,
      durationMs: round(elapsed),
      callsPerSecond: round(elapsed > 0 ? (latency.count * 1000) / elapsed : 0),
      latencyMs: mapValues(latency.summary(), round),
      samples: latency.held,
      stoppedBy: outer?.aborted ? 'interrupt' : calls !== undefined ? 'calls' : 'duration',
    };
  } finally {
    outer?.removeEventListener('abort', onouter);
    await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
  }
}

/** The latencies of the current bucket (every one: a bucket is short), closed as time passes it. */
class Buckets {
  private start: number;
  private readonly ms: number[] = [];
  private errors = 0;

  constructor(
    private readonly width: number,
    private readonly origin: number,
    private readonly onbucket: (b: LoadBucket) => void,
  ) {
    this.start = origin;
  }

  add(now: number, ms: number, failed: boolean): void {
    if (now >= this.start + this.width) this.flush(now);
    this.ms.push(ms);
    if (failed) this.errors++;
  }

  /** Closes the current bucket (empty ones between are skipped: the chart shows the gap). */
  flush(now: number): void {
    if (this.ms.length > 0) {
      const sorted = Float64Array.from(this.ms).sort();
      const rank = (p: number): number =>
        sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
      this.onbucket({
        t: round(this.start - this.origin),
        calls: sorted.length,
        errors: this.errors,
        p50: round(rank(50)),
        p95: round(rank(95)),
        max: round(sorted[sorted.length - 1]!),
      });
    }
    this.ms.length = 0;
    this.errors = 0;
    this.start += Math.floor((now - this.start) / this.width) * this.width;
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
