#!/usr/bin/env node
// Fault: the connection carrying a tool call's response stream is cut mid-stream (after the
// first progress event), between a client and mcpkit's serve(). mcpkit's client reconnects
// with GET and Last-Event-ID; the server replays what the stream had after that id from its
// event store. The official SDK v1 client is run against the same cuts, side by side.
// Prints how many calls completed, progress lost or duplicated, and the delay.
//   node test/faults/http-drop.mjs [--calls N]
import { Client } from '../../dist/client/index.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';
import { serve } from '../../dist/serve/index.js';
import { StreamableHttpClientTransport } from '../../dist/transports/http-client/index.js';
import { startCutProxy } from '../../dist/test-support/cut-proxy.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const i = process.argv.indexOf('--calls');
const CALLS = i === -1 ? 20 : Number(process.argv[i + 1]);
/** A call that has not completed this long after its cut counts as lost. */
const GIVE_UP_MS = 10_000;

const clients = {
  mcpkit: async (url) => {
    const c = new Client({ name: 'drop', version: '1.0.0' }, { era: 'legacy' });
    await c.connect(new StreamableHttpClientTransport({ url }));
    return {
      call: (onprogress) =>
        c.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress, timeoutMs: GIVE_UP_MS }),
      close: () => c.close(),
    };
  },
  'sdk-v1': async (url) => {
    const c = new V1Client({ name: 'drop', version: '1.0.0' });
    await c.connect(new V1Http(new URL(url)));
    return {
      call: (onprogress) =>
        c.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
          onprogress,
          timeout: GIVE_UP_MS,
        }),
      close: () => c.close(),
    };
  },
};

let ok = true;
for (const [name, connect] of Object.entries(clients)) {
  const running = await serve(createEverythingServer({ stepMs: 100 }), { port: 0 });
  const proxy = await startCutProxy(running.port);
  const client = await connect(`http://127.0.0.1:${proxy.port}/mcp`);
  let completed = 0;
  let lost = 0;
  let duplicated = 0;
  const delays = [];
  for (let n = 0; n < CALLS; n++) {
    const seen = [];
    const cutAt = proxy.arm('notifications/progress');
    const result = await client.call((p) => seen.push(p.progress)).catch(() => undefined);
    const done = performance.now();
    if (result?.content?.[0]?.text !== 'Tool with progress executed successfully') continue;
    completed++;
    for (const step of [0, 50, 100]) {
      const k = seen.filter((p) => p === step).length;
      if (k === 0) lost++;
      if (k > 1) duplicated += k - 1;
    }
    delays.push(done - (await cutAt));
  }
  await client.close().catch(() => undefined);
  await proxy.close();
  await running.close();
  delays.sort((a, b) => a - b);
  console.log(
    `http-drop ${name.padEnd(6)}: ${completed}/${CALLS} calls completed after their stream was cut (${proxy.cuts} cuts)` +
      (completed
        ? `; in those, progress events lost ${lost}, duplicated ${duplicated}; cut to result: median ` +
          `${delays[delays.length >> 1].toFixed(0)} ms, max ${delays[delays.length - 1].toFixed(0)} ms ` +
          `(the tool's own remaining work: 200 ms)`
        : `; each call failed or timed out (${GIVE_UP_MS / 1000} s)`),
  );
  if (name === 'mcpkit') ok = completed === CALLS && lost === 0 && duplicated === 0;
}
process.exit(ok ? 0 : 1);
