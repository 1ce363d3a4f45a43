// Where mcpkit's server CPU per HTTP call goes, layer by layer, in one process and without
// sockets, so that the figures hold still on a shared machine better than a socket
// benchmark's. Each layer serves the same legacy `tools/call` of the echo tool that
// bench/http-cpu.mjs sends, one call at a time, and the CPU per call is printed:
//
//   floor-js  what the floor's own JavaScript does per call: JSON.parse, JSON.stringify
//             and, for SSE, the event framing;
//   engine    a McpServer session behind a bare transport: parse, dispatch, input
//             validation, the handler, the result, serialize;
//   core json / core sse
//             the HTTP core (McpHttpHandler) on an in-memory exchange: the request checks,
//             the session lookup, the response mode, the SSE framing and event store, and
//             the engine; no node:http.
//
// Node's own HTTP work (parsing the request, writing the response, the socket) is the
// rest, the same for the floor and mcpkit: bench/http-cpu.mjs's floor minus floor-js.
//
//   node bench/http-layers.mjs [--calls N] [--rounds N] [--json] [--only <layer>]
import { z } from 'zod';

const argv = process.argv;
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const CALLS = Number(opt('--calls') ?? 20_000);
const ROUNDS = Number(opt('--rounds') ?? 7);
const dist = process.env.MCPKIT_DIST ?? new URL('../dist', import.meta.url).href;
const { McpServer } = await import(`${dist}/index.js`);
const { McpHttpHandler } = await import(`${dist}/transports/http-server/index.js`);
const { parseFrame, serializeMessage } = await import(`${dist}/jsonrpc/index.js`);

const VERSION = '2025-11-25';
const callText = (id) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'hello' } },
  });

function makeServer() {
  const server = new McpServer({ name: 'mcpkit-echo', version: '1.0.0' });
  server.tool({ name: 'echo', input: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

/** The floor's JavaScript per call. */
function floorJs(sse) {
  let id = 0;
  return () => {
    const m = JSON.parse(callText(++id));
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: m.id,
      result: { content: [{ type: 'text', text: m.params.arguments.text }] },
    });
    return Promise.resolve(sse ? `event: message\ndata: ${body}\n\n` : body);
  };
}

/** A McpServer session behind a bare transport: what the engine costs without HTTP. */
async function engine() {
  let sink;
  let answered;
  const transport = {
    kind: 'bench',
    start: (s) => {
      sink = s;
    },
    send: (m) => {
      const text = serializeMessage(m);
      answered?.(text);
      answered = undefined;
    },
    close: async () => undefined,
  };
  await makeServer().connect(transport);
  const ask = (text) =>
    new Promise((resolve) => {
      answered = resolve;
      sink.frame(parseFrame(text));
    });
  await ask(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
  sink.frame(parseFrame('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
  let id = 0;
  return () => ask(callText(++id));
}

/** An HttpExchange held in memory: the body is at hand, the answer is a string. */
class MemoryExchange {
  method = 'POST';
  path = '/mcp';
  query = '';
  remoteAddress = '127.0.0.1';
  constructor(headers, body, done) {
    this.headers = headers;
    this.body = body;
    this.done = done;
    this.out = '';
  }
  header(name) {
    return this.headers[name];
  }
  readBody() {
    return Promise.resolve({ ok: true, text: this.body });
  }
  get closed() {
    return new AbortController().signal;
  }
  onClose() {}
  respond(status, headers, body) {
    this.done({ status, headers, body: body ?? '' });
  }
  stream(status, headers) {
    let ended = false;
    return {
      write: (chunk) => {
        this.out += chunk;
        return true;
      },
      end: () => {
        ended = true;
        this.done({ status, headers, body: this.out });
      },
      get ended() {
        return ended;
      },
    };
  }
}

/** The HTTP core on in-memory exchanges, in one response mode. */
async function core(responseMode) {
  const handler = new McpHttpHandler(makeServer(), { responseMode, legacySse: null });
  const base = {
    host: '127.0.0.1:3000',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const post = (headers, body) =>
    new Promise((resolve) => {
      void handler.handle(
        // Object.assign, not a spread that adds a key: on Node 20 that makes a new hidden class
        // per call (see src/jsonrpc/with-field.ts), which the code reading the headers would pay.
        new MemoryExchange(
          Object.assign({}, headers, { 'content-length': String(body.length) }),
          body,
          resolve,
        ),
      );
    });
  const init = await post(
    base,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
  const headers = {
    ...base,
    'mcp-protocol-version': VERSION,
    'mcp-session-id': init.headers['mcp-session-id'],
  };
  await post(headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  let id = 0;
  const call = async () => {
    const text = callText(++id);
    const r = await post(headers, text);
    if (!r.body.includes('"text":"hello"')) throw new Error(`bad answer: ${r.body}`);
  };
  return Object.assign(call, { close: () => handler.close() });
}

const layers = {
  'floor-js json': () => floorJs(false),
  'floor-js sse': () => floorJs(true),
  engine,
  'core json': () => core('json'),
  'core sse': () => core('sse'),
};
const only = opt('--only');
const calls = {};
for (const [name, make] of Object.entries(layers))
  if (only === undefined || only === name) calls[name] = await make();

async function cpuPerCall(call, n) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await call();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

const names = Object.keys(calls);
for (const name of names) await cpuPerCall(calls[name], CALLS); // warm-up
const results = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + round) % names.length];
    results[name].push(await cpuPerCall(calls[name], CALLS));
  }
}
for (const name of names) await calls[name].close?.();
// The lowest round: interference only adds CPU time.
const best = Object.fromEntries(names.map((n) => [n, Math.min(...results[n])]));
if (argv.includes('--json')) {
  console.log(JSON.stringify(best));
} else {
  console.log(
    `CPU µs per legacy tools/call, in process, no sockets (best of ${ROUNDS} rounds of ${CALLS} calls)`,
  );
  for (const name of names) console.log(`  ${name.padEnd(14)} ${best[name].toFixed(2)}`);
  if (only !== undefined) process.exit(0);
  console.log(
    `  core sse - floor-js sse = ${(best['core sse'] - best['floor-js sse']).toFixed(2)} µs per call over the floor`,
  );
  console.log(
    `  core sse - core json    = ${(best['core sse'] - best['core json']).toFixed(2)} µs per call for SSE over JSON`,
  );
  console.log(
    `  core json - engine      = ${(best['core json'] - best.engine).toFixed(2)} µs per call for the HTTP core`,
  );
}
process.exit(0);
