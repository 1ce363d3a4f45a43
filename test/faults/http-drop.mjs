#!/usr/bin/env node
// Fault: the connection carrying a tool call's response stream is cut mid-stream (after the
// first progress event), between mcpkit's client and serve(). The client reconnects with
// GET and Last-Event-ID; the server replays what the stream had after that id from its
// event store. Prints how many calls completed, progress lost or duplicated, and the delay.
//   node test/faults/http-drop.mjs [--calls N]
import { Client } from '../../dist/client/index.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';
import { serve } from '../../dist/transports/http-server/index.js';
import { StreamableHttpClientTransport } from '../../dist/transports/http-client/index.js';
import { startCutProxy } from '../../dist/transports/http-client/cut-proxy.test.helpers.js';

const i = process.argv.indexOf('--calls');
const CALLS = i === -1 ? 20 : Number(process.argv[i + 1]);

const running = await serve(createEverythingServer({ stepMs: 100 }), { port: 0 });
const proxy = await startCutProxy(running.port);
const client = new Client({ name: 'drop', version: '1.0.0' }, { era: 'legacy' });
await client.connect(new StreamableHttpClientTransport({ url: `http://127.0.0.1:${proxy.port}/mcp` }));

let completed = 0;
let lost = 0;
let duplicated = 0;
const delays = [];
for (let n = 0; n < CALLS; n++) {
  const seen = [];
  const cutAt = proxy.arm('notifications/progress');
  const result = await client.callTool(
    { name: 'test_tool_with_progress', arguments: {} },
    { onprogress: (p) => seen.push(p.progress), timeoutMs: 30_000 },
  );
  const done = performance.now();
  if (result.content?.[0]?.text === 'Tool with progress executed successfully') completed++;
  for (const step of [0, 50, 100]) {
    const k = seen.filter((p) => p === step).length;
    if (k === 0) lost++;
    if (k > 1) duplicated += k - 1;
  }
  delays.push(done - (await cutAt));
}
await client.close();
await proxy.close();
await running.close();
delays.sort((a, b) => a - b);
console.log(
  `http-drop: ${completed}/${CALLS} calls completed after their stream was cut (${proxy.cuts} cuts); ` +
    `progress events lost ${lost}, duplicated ${duplicated}; cut to result: median ${delays[delays.length >> 1].toFixed(0)} ms, ` +
    `max ${delays[delays.length - 1].toFixed(0)} ms (the tool's own remaining work: 200 ms)`,
);
process.exit(completed === CALLS && lost === 0 && duplicated === 0 ? 0 : 1);
