import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI_MAIN, runCli, startCli } from '../test-support/cli-process.js';
import { SPAN_KIND, startOtlpReceiver } from '../test-support/otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from '../test-support/otlp-receiver.js';
import { within } from '../test-support/waiting.js';

/** The environment that asks the CLI to export OTLP http/json to `endpoint`, spans sent at once. */
function otelEnv(endpoint: string): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '20',
    OTEL_METRICS_EXPORTER: 'none',
  };
}

/** A config whose one server is `mcpkit demo-server --stdio`, exporting with `env`. */
function demoConfig(env: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-otel-'));
  const file = join(dir, 'mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        demo: {
          command: process.execPath,
          args: [CLI_MAIN, 'demo-server', '--stdio'],
          env,
          policy: { default: 'allow' },
        },
      },
    }),
  );
  return file;
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const find = (spans: ReceivedSpan[], service: string, kind: number, name: string): ReceivedSpan | undefined =>
  spans.find((s) => s.service === service && s.kind === kind && s.name === name);

describe('the CLI exports OpenTelemetry when the OTEL_* environment asks', () => {
  let receiver: OtlpReceiver;
  before(async () => {
    receiver = await startOtlpReceiver();
  });
  after(() => receiver.close());

  test('a call through `mcpkit proxy` is one trace: client -> proxy server -> proxy client -> upstream server', async () => {
    const env = otelEnv(receiver.endpoint);
    const proxy = startCli(['proxy', '--config', demoConfig(env), '--port', '0', '-y'], {
      env: { ...process.env, ...env },
    });
    try {
      const url = await proxy.printed('stderr', /mcpkit gateway: (\S+)/);
      const client = new Client({ name: 'official-sdk', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const traceId = randomBytes(16).toString('hex');
      const callerSpanId = randomBytes(8).toString('hex');
      const result = await client.request(
        {
          method: 'tools/call',
          params: {
            name: 'demo__add',
            arguments: { a: 2, b: 40 },
            _meta: { traceparent: `00-${traceId}-${callerSpanId}-01` },
          },
        },
        CallToolResultSchema,
      );
      assert.deepEqual(result.content, [{ type: 'text', text: '42' }]);
      await client.close();

      const spans = await receiver.until(
        (all) =>
          find(all, 'mcpkit-demo-server', SPAN_KIND.SERVER, 'tools/call add')?.traceId === traceId &&
          find(all, 'mcpkit-proxy', SPAN_KIND.CLIENT, 'tools/call add') !== undefined &&
          find(all, 'mcpkit-proxy', SPAN_KIND.SERVER, 'tools/call demo__add') !== undefined,
      );
      const proxyServer = find(spans, 'mcpkit-proxy', SPAN_KIND.SERVER, 'tools/call demo__add')!;
      const proxyClient = spans.find(
        (s) => s.service === 'mcpkit-proxy' && s.kind === SPAN_KIND.CLIENT && s.traceId === traceId,
      )!;
      const upstream = find(spans, 'mcpkit-demo-server', SPAN_KIND.SERVER, 'tools/call add')!;
      assert.equal(proxyServer.traceId, traceId);
      assert.equal(proxyServer.parentSpanId, callerSpanId);
      assert.equal(proxyClient.name, 'tools/call add');
      assert.equal(proxyClient.parentSpanId, proxyServer.spanId);
      assert.equal(upstream.traceId, traceId);
      assert.equal(upstream.parentSpanId, proxyClient.spanId);
      assert.equal(proxyServer.attributes['gen_ai.tool.name'], 'demo__add');
      assert.equal(upstream.attributes['network.transport'], 'pipe');
    } finally {
      await within(proxy.stop(), 10_000, 'the proxy exit');
    }
  });

  test('an exporter endpoint that refuses connections neither breaks nor holds up a call', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    // The exporter may retry for two minutes: a call held up by it would outlast the bound
    // below, where the flush waits at most OTEL_SHUTDOWN_MS (2 s) however the exporter fails.
    const env = {
      ...process.env,
      ...otelEnv(endpoint),
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TIMEOUT: '120000',
    };
    const r = await within(
      runCli(['call', 'add', 'a=2', 'b=40', '--', process.execPath, CLI_MAIN, 'demo-server', '--stdio'], {
        env,
      }),
      60_000,
      'the call',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '42');

    const proxy = startCli(['proxy', '--config', demoConfig(otelEnv(endpoint)), '--port', '0', '-y'], {
      env,
    });
    const url = await proxy.printed('stderr', /mcpkit gateway: (\S+)/);
    const client = new Client({ name: 'official-sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: 'demo__add', arguments: { a: 1, b: 2 } });
    assert.deepEqual(result.content, [{ type: 'text', text: '3' }]);
    await client.close();
    await within(proxy.stop(), 10_000, 'the proxy exit');
  });
});
