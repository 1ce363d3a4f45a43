// Measures the walk of one modern tools/call over HTTP: which of our files and functions
// run, from Node's request event to the response write. Run after `npx tsc`:
//   node scripts/measure-walk.mjs
// It prints the stack at the tool handler and at the response write (async frames
// included), then every function of dist/ that ran for one warm request, with call counts.
import inspector from 'node:inspector';
import http from 'node:http';
import { McpServer } from '../dist/index.js';
import { nodeListener } from '../dist/serve/index.js';

const session = new inspector.Session();
session.connect();
const post = (method, params = {}) =>
  new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
const scripts = new Map();
session.on('Debugger.scriptParsed', (m) => scripts.set(m.params.scriptId, m.params.url));
await post('Debugger.enable');
await post('Debugger.setAsyncCallStackDepth', { maxDepth: 64 });
let stacks = undefined;
const ours = (url) => url.includes('/dist/');
const short = (url) => url.replace(/^.*\/dist\//, '');
session.on('Debugger.paused', (m) => {
  if (stacks) {
    const lines = [];
    const add = (f) =>
      ours(f.url) && lines.push(`${short(f.url)}:${f.lineNumber + 1} ${f.functionName || '(anonymous)'}`);
    for (const f of m.params.callFrames) {
      add({
        url: scripts.get(f.location.scriptId) ?? '',
        lineNumber: f.location.lineNumber,
        functionName: f.functionName,
      });
    }
    for (let a = m.params.asyncStackTrace; a; a = a.parent) {
      lines.push(`  -- ${a.description ?? 'async'}`);
      for (const f of a.callFrames)
        add({ url: f.url, lineNumber: f.lineNumber, functionName: f.functionName });
    }
    stacks.push(lines);
  }
  session.post('Debugger.resume');
});

const server = new McpServer({ name: 'walk', version: '1' });
server.tool({ name: 'echo', description: 'echo' }, () => {
  debugger; // eslint-disable-line no-debugger
  return 'ok';
});
const { listener } = nodeListener(server);
const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (...args) {
  debugger; // eslint-disable-line no-debugger
  return end.apply(this, args);
};
const httpServer = http.createServer(listener);
httpServer.requestTimeout = 30_000;
httpServer.headersTimeout = 10_000;
await new Promise((r) => httpServer.listen(0, '127.0.0.1', r));
const { port } = httpServer.address();
const call = (id) =>
  fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'walk', version: '1' },
        },
      },
    }),
  }).then(async (r) => [r.status, await r.text()]);

// Warm up: lazy modules load, caches fill.
for (let i = 0; i < 3; i++) await call(i);
await post('Profiler.enable');
await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await post('Profiler.takePreciseCoverage'); // resets the counts
stacks = [];
const answer = await call(99);
const { result } = await post('Profiler.takePreciseCoverage');
const captured = stacks;
stacks = undefined;
await post('Profiler.stopPreciseCoverage');
console.log('answer', answer[0], answer[1].slice(0, 120));
for (const [i, s] of captured.entries()) {
  console.log(`\n== stack ${i === 0 ? 'at the tool handler' : 'at the response write'} ==`);
  console.log(s.join('\n'));
}
let files = 0;
let calls = 0;
const rows = [];
for (const script of result) {
  if (!ours(script.url)) continue;
  const fns = script.functions.filter((f) => f.ranges[0].count > 0 && f.functionName !== '');
  const anon = script.functions.filter(
    (f) => f.ranges[0].count > 0 && f.functionName === '' && f.ranges[0].startOffset > 0,
  );
  const all = [...fns, ...anon];
  if (all.length === 0) continue;
  files++;
  const n = all.reduce((s, f) => s + f.ranges[0].count, 0);
  calls += n;
  rows.push(
    `${short(script.url)}: ${all.map((f) => `${f.functionName || '(anon)'}×${f.ranges[0].count}`).join(', ')}`,
  );
}
console.log('\n== functions of dist/ that ran for one tools/call ==');
console.log(rows.join('\n'));
console.log(`\nfiles: ${files}, function calls: ${calls}`);
httpServer.close();
await server.close();
process.exit(0);
