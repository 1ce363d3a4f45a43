// What every HTTP benchmark server shares: reading a body, and the IPC side channel to
// bench/http.mjs (ports once listening; on request, the heap after a forced GC or the CPU
// time used so far), so that
// measuring never goes through the HTTP path being measured. Run with --expose-gc.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/** Reads a whole request body as a string. */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString()),
    );
    req.on('error', reject);
  });
}

/** Heap in use after full collections (needs --expose-gc). */
async function settledHeap() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

/** Tells the parent the ports, then answers `heap` and `cpu` requests until it goes away. */
export function ready(ports) {
  process.on('message', async (m) => {
    if (m?.type === 'heap') process.send({ type: 'heap', seq: m.seq, value: await settledHeap() });
    if (m?.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send({ type: 'cpu', seq: m.seq, value: user + system });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', ...ports });
}

/**
 * The stateful wiring both official SDKs document: a session map, a new transport and
 * server per `initialize`, and every other request handed to its session's transport.
 * `sdk` supplies the SDK's own parts; resolves with the port once listening.
 */
export function listenWithSessions(sdk, enableJsonResponse) {
  const transports = new Map();
  const server = createServer(async (req, res) => {
    try {
      const sid = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!transport) {
        if (sid !== undefined || !sdk.isInitializeRequest(body)) {
          res.writeHead(sid === undefined ? 400 : 404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad session' }, id: null }),
          );
          return;
        }
        const t = sdk.serverTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (id) => transports.set(id, t),
        });
        t.onclose = () => {
          if (t.sessionId) transports.delete(t.sessionId);
        };
        await sdk.makeServer().connect(t);
        transport = t;
      }
      await sdk.handle(transport, req, res, body);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}
