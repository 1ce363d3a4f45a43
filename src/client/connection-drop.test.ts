/**
 * Faults on a real connection: the TCP connection carrying a call's response stream is cut
 * after its first progress event (a proxy between client and `serve()`). The client must
 * come back with GET and `Last-Event-ID` and get the rest of the stream, each event once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from './index.js';
import { createEverythingServer } from '../demo/everything-server.js';
import { serve } from '../serve/index.js';
import { startCutProxy } from '../test-support/cut-proxy.js';
import { bindings } from '../test-support/http-client-bindings.js';

for (const { name, StreamableHttpClientTransport } of bindings) {
  test(`on ${name}: a response stream cut mid-way is resumed from Last-Event-ID; no event lost or repeated`, async () => {
    await using running = await serve(createEverythingServer({ stepMs: 100 }));
    const proxy = await startCutProxy(running.port);
    const client = new Client({ name: 'drop', version: '1.0.0' }, { era: 'legacy' });
    try {
      await client.connect(new StreamableHttpClientTransport({ url: `http://127.0.0.1:${proxy.port}/mcp` }));
      for (let n = 0; n < 2; n++) {
        const seen: number[] = [];
        const cut = proxy.arm('notifications/progress');
        const result = await client.callTool(
          { name: 'test_tool_with_progress', arguments: {} },
          { onprogress: (p) => void seen.push(p.progress) },
        );
        await cut;
        assert.deepEqual(result.content, [
          { type: 'text', text: 'Tool with progress executed successfully' },
        ]);
        assert.deepEqual(seen, [0, 50, 100]);
      }
      assert.equal(proxy.cuts, 2);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
}
