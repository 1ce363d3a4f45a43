/**
 * Test-only: an OTLP/HTTP JSON receiver on 127.0.0.1, as a collector would be. It keeps the
 * spans POSTed to /v1/traces (answering 200 to /v1/metrics too) and lets a test wait until
 * the spans it expects have arrived.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WAIT_MS } from './waiting.js';

/** One received span, flattened from the OTLP JSON body. */
export interface ReceivedSpan {
  service: string;
  name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT`, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Resolves with the spans once `check` holds for them; rejects after `timeoutMs`. */
  until(check: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface TracesBody {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        name: string;
        kind: number;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: KeyValue[];
      }>;
    }>;
  }>;
}

const plain = (v: AnyValue): unknown => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const record = (kvs: KeyValue[] = []): Record<string, unknown> =>
  Object.fromEntries(kvs.map((kv) => [kv.key, plain(kv.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TracesBody;
        for (const rs of body.resourceSpans ?? []) {
          const service = String(record(rs.resource?.attributes)['service.name']);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                service,
                name: s.name,
                kind: s.kind,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || undefined,
                attributes: record(s.attributes),
              });
        }
        for (const w of waiters) w();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    until(check, timeoutMs = WAIT_MS) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(
            new Error(
              `the expected spans did not arrive; got ${JSON.stringify(spans.map((s) => [s.service, s.name]))}`,
            ),
          );
        }, timeoutMs);
        const test = (): void => {
          if (!check(spans)) return;
          clearTimeout(timer);
          waiters.delete(test);
          resolve(spans);
        };
        waiters.add(test);
        test();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
