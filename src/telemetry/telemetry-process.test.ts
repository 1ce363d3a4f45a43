// Telemetry across a process boundary (a real stdio child whose spans come back in a file),
// and the cost of leaving it off: a server and client without `telemetry` load no
// OpenTelemetry module and none of mcpkit's telemetry code.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind } from '@opentelemetry/api';
import { Client } from '../client/client.js';
import { StdioClientTransport } from '../transports/stdio/index.js';
import { WireTap } from '../test-support/mcp-harness.js';
import { inRootSpan, installOtel, parentOf } from '../test-support/otel.js';
import { modulesLoadedBy } from '../test-support/loaded-modules.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/traced-stdio-server.js', import.meta.url));

interface SpanLine {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

describe('telemetry over stdio (a real child process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-otel-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const era of ['legacy', 'modern'] as const) {
    test(`${era}: the child's SERVER span is a child of our CLIENT span, with network.transport pipe`, async () => {
      const otel = installOtel();
      const file = join(dir, `${era}.jsonl`);
      const client = new Client(
        { name: 'c', version: '1' },
        { era, telemetry: { tracerProvider: otel.tracerProvider, metrics: false } },
      );
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [FIXTURE],
        env: { TRACED_SPANS_FILE: file },
        stderr: 'ignore',
      });
      const tap = new WireTap(transport, era === 'legacy' ? '2025-11-25' : '2026-07-28');
      await client.connect(tap);
      const { traceId } = await inRootSpan(otel, 'test', () =>
        client.callTool({ name: 'echo', arguments: {} }),
      );
      // The child writes its span before it answers (the span ends as the answer is sent).
      await client.close();
      tap.assertValid();
      const mine = otel.spans().find((s) => s.name === 'tools/call echo' && s.kind === SpanKind.CLIENT);
      assert.ok(mine);
      assert.equal(mine.attributes['network.transport'], 'pipe');
      assert.ok(existsSync(file));
      const theirs = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as SpanLine)
        .find((s) => s.name === 'tools/call echo' && s.kind === SpanKind.SERVER);
      assert.ok(theirs, 'the child reported its server span');
      assert.equal(theirs.traceId, traceId);
      assert.equal(theirs.parentSpanId, mine.spanContext().spanId);
      assert.equal(parentOf(mine) !== undefined, true);
      assert.equal(theirs.attributes['network.transport'], 'pipe');
      assert.equal(theirs.attributes['mcp.protocol.version'], era === 'legacy' ? '2025-11-25' : '2026-07-28');
    });
  }
});

describe('telemetry off costs nothing to load', () => {
  const code = (options: string): string => `
    const { McpServer, Client, memoryPair } = await import('./index.js');
    const server = new McpServer({ name: 's', version: '1' }, ${options});
    server.tool({ name: 'echo' }, () => 'echo');
    const [a, b] = memoryPair();
    await server.connect(b);
    const client = new Client({ name: 'c', version: '1' }, ${options});
    await client.connect(a);
    const r = await client.callTool({ name: 'echo', arguments: {} });
    if (r.content[0].text !== 'echo') throw new Error('bad answer');
    await client.close();
    await server.close();`;
  const otelModules = (modules: string[]): string[] =>
    modules.filter((m) => m.includes('@opentelemetry') || m.includes('/dist/telemetry/'));

  test('without telemetry, no @opentelemetry module and no mcpkit telemetry module is loaded', () => {
    assert.deepEqual(otelModules(modulesLoadedBy(code('{}'))), []);
    assert.deepEqual(otelModules(modulesLoadedBy(code('{ telemetry: false }'))), []);
  });

  test('with telemetry: true (no SDK registered) only @opentelemetry/api loads, and the call works', () => {
    const loaded = otelModules(modulesLoadedBy(code('{ telemetry: true }')));
    assert.ok(loaded.some((m) => m.includes('/@opentelemetry/api/')));
    assert.ok(
      loaded.every((m) => !m.includes('@opentelemetry/') || m.includes('/@opentelemetry/api/')),
      loaded.join('\n'),
    );
  });
});
