/**
 * Test-only: tiny `node:http` servers on 127.0.0.1 for the HTTP client transport tests.
 * Named `*.test.helpers.ts` so it is neither run as a test nor shipped in the package.
 */
import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from '../session/index.js';
import type { SessionLogger } from '../session/index.js';

/** One request as the server saw it. */
export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: Record<string, unknown> | undefined;
  /** When the body was complete (performance.now()). */
  at: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void | Promise<void>;

export interface ScriptedHttpServer {
  url: string;
  origin: string;
  seen: Seen[];
  /** Requests with this JSON-RPC method, or with this HTTP method when it is GET or DELETE. */
  of(method: string): Seen[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler, path = '/mcp'): Promise<ScriptedHttpServer> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> | undefined;
      try {
        json = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
      } catch {
        json = undefined;
      }
      const s: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
        at: performance.now(),
      };
      seen.push(s);
      Promise.resolve(handler(req, res, s)).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${path}`,
    origin,
    seen,
    of: (method) =>
      seen.filter((s) =>
        method === 'GET' || method === 'DELETE' ? s.method === method : s.json?.method === method,
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(
  res: ServerResponse,
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...headers,
  });
  res.flushHeaders();
}

export function sseEvent(
  res: ServerResponse,
  fields: { id?: string; retry?: number; event?: string; data: unknown },
): void {
  let out = '';
  if (fields.event !== undefined) out += `event: ${fields.event}\n`;
  if (fields.id !== undefined) out += `id: ${fields.id}\n`;
  if (fields.retry !== undefined) out += `retry: ${fields.retry}\n`;
  out += `data: ${typeof fields.data === 'string' ? fields.data : JSON.stringify(fields.data)}\n\n`;
  res.write(out);
}

/** The id of a JSON-RPC request body. */
export const idOf = (s: Seen): unknown => s.json?.id;

export const result = (s: Seen, value: Record<string, unknown>): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id: idOf(s),
  result: value,
});

export const initializeResult = (s: Seen, version = '2025-11-25'): Record<string, unknown> =>
  result(s, {
    protocolVersion: version,
    capabilities: { tools: {} },
    serverInfo: { name: 's', version: '1' },
  });

/** A raw client session whose log lines are kept instead of printed. */
export function newSession(logs: string[] = []): Session {
  const logger: SessionLogger = (level, message) => {
    logs.push(`${level}: ${message}`);
  };
  return new Session({
    role: 'client',
    info: { name: 't', version: '1' },
    logger,
    timeoutMs: 10_000,
  });
}
