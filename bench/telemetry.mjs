// Telemetry cost: sequential in-memory tools/call throughput, in one process, with telemetry
// off, on with no SDK registered (the API's no-op tracer and meter: what `telemetry: true`
// costs before anyone installs an SDK), and on with the real SDK (spans to an in-memory
// exporter through a SimpleSpanProcessor, metrics to a reader, the AsyncLocalStorage context
// manager and the W3C propagators registered, trace context injected and extracted in _meta).
// Rounds are interleaved (off, no-op, SDK, off, …) so the machine's drift hits all three
// alike; the median round of each counts. Ratios are against off.
//
//   npm run build && node --expose-gc bench/telemetry.mjs [--calls 3000] [--rounds 7] [--era legacy|modern] [--json]
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Client, McpServer, memoryPair } from '../dist/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : process.argv[i + 1];
};
const quick = process.argv.includes('--quick');
const CALLS = Number(arg('--calls', quick ? 1000 : 3000));
const ROUNDS = Number(arg('--rounds', quick ? 3 : 7));
const ERA = arg('--era', 'legacy');
const json = process.argv.includes('--json');

class PullReader extends MetricReader {
  onForceFlush() {
    return Promise.resolve();
  }
  onShutdown() {
    return Promise.resolve();
  }
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const reader = new PullReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const contextManager = new AsyncLocalStorageContextManager();
const propagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});

/** The SDK's globals are there only while the SDK configuration runs. */
function sdkGlobals(on) {
  if (on) {
    context.setGlobalContextManager(contextManager.enable());
    propagation.setGlobalPropagator(propagator);
  } else {
    context.disable();
    propagation.disable();
  }
}

async function pair(telemetry) {
  const options = telemetry === undefined ? {} : { telemetry };
  const server = new McpServer({ name: 'bench', version: '1.0.0' }, options);
  server.tool({ name: 'echo' }, () => 'echo');
  const [a, b] = memoryPair();
  await server.connect(b);
  const client = new Client({ name: 'bench', version: '1.0.0' }, { ...options, era: ERA });
  await client.connect(a);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

const CONFIGS = [
  { name: 'off', telemetry: undefined, sdk: false },
  { name: 'no-op', telemetry: true, sdk: false },
  { name: 'SDK', telemetry: { tracerProvider, meterProvider }, sdk: true },
];

async function round(config) {
  sdkGlobals(config.sdk);
  const { client, close } = await pair(config.telemetry);
  const params = { name: 'echo', arguments: {} };
  for (let i = 0; i < 200; i++) await client.callTool(params); // warm this pair
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await client.callTool(params);
  const ms = performance.now() - t0;
  await close();
  if (config.sdk) {
    // Two spans per call (client and server) must have been exported.
    if (exporter.getFinishedSpans().length < 2 * CALLS) throw new Error('the SDK saw too few spans');
    exporter.reset();
    await reader.collect();
  }
  sdkGlobals(false);
  return (CALLS / ms) * 1000;
}

const results = Object.fromEntries(CONFIGS.map((c) => [c.name, []]));
for (const c of CONFIGS) await round(c); // warm-up round of each, not counted
// Each round starts with a collected heap (the SDK round leaves thousands of spans behind) and
// rotates the order, so no configuration always follows the SDK.
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < CONFIGS.length; k++) {
    const c = CONFIGS[(r + k) % CONFIGS.length];
    globalThis.gc?.();
    results[c.name].push(await round(c));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = Object.fromEntries(CONFIGS.map((c) => [c.name, Math.round(median(results[c.name]))]));
const ratios = {
  noopVsOff: summary['no-op'] / summary.off,
  sdkVsOff: summary.SDK / summary.off,
};
if (json) {
  console.log(JSON.stringify({ era: ERA, calls: CALLS, rounds: ROUNDS, callsPerSecond: summary, ratios }));
} else {
  console.log(
    `in-memory tools/call, ${ERA} era, ${CALLS} sequential calls × ${ROUNDS} interleaved rounds (median)`,
  );
  for (const c of CONFIGS)
    console.log(`  ${c.name.padEnd(6)} ${String(summary[c.name]).padStart(7)} calls/s`);
  console.log(`  no-op / off: ${ratios.noopVsOff.toFixed(2)}×   SDK / off: ${ratios.sdkVsOff.toFixed(2)}×`);
}
