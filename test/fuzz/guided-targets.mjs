// Targets of the coverage-guided loop (guided.mjs): each takes one string, throws when an
// invariant breaks, and names the compiled files whose blocks guide it and the fast-check
// target (targets.mjs) it is compared with. Imported only after coverage has started, so
// that every function of these modules is compiled with block counters.
import { InvalidMessage, LocalError, ParsedBatch, parseFrame } from '../../dist/jsonrpc/index.js';
import { readSse } from '../../dist/transports/http-client/sse-reader.js';
import { UriTemplate } from '../../dist/server/uri-template.js';
import { fetchHandler } from '../../dist/transports/http-server/fetch-adapter.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';
import { scriptedReply } from './scripted-reply.mjs';

const fail = (what, input) => {
  throw new Error(`${what} for ${JSON.stringify(input)}`);
};

/** A reply whose body is `text` cut into three pieces at points the text itself picks. */
function replyOf(text) {
  const a = text.length ? text.charCodeAt(0) % (text.length + 1) : 0;
  const b = a + (text.length ? text.charCodeAt(text.length - 1) % (text.length - a + 1) : 0);
  return scriptedReply([text.slice(0, a), text.slice(a, b), text.slice(b)]);
}

/** The demo server behind the HTTP core, made on first use and closed by closeGuided(). */
let http;
const METHODS = ['POST', 'GET', 'DELETE', 'PUT', 'OPTIONS'];
const STATUSES = new Set([200, 202, 400, 403, 404, 405, 406, 409, 413, 415, 429]);

/** Closes what the targets opened. */
export async function closeGuided() {
  if (http) {
    await http.handler.close();
    await http.server.close();
    http = undefined;
  }
}

export const guidedTargets = [
  {
    name: 'jsonrpc-envelope',
    files: /\/dist\/jsonrpc\//,
    seeds: [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}',
      '{"jsonrpc":"2.0","id":"a","result":{"_meta":{}}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m","data":1}}',
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]',
      '[]',
      '"',
    ],
    dictionary: [
      '{',
      '}',
      '[',
      ']',
      ':',
      ',',
      '"jsonrpc"',
      '"2.0"',
      '"id"',
      '"method"',
      '"params"',
      '"result"',
      '"error"',
      '"code"',
      '"message"',
      '"data"',
      '"_meta"',
      'null',
      'true',
      'false',
      '0',
      '-1',
      '1.5',
      '1e400',
      '"__proto__"',
      '"constructor"',
      '\\u0000',
      ' ',
    ],
    run(text) {
      const f = parseFrame(text);
      if (!(f instanceof InvalidMessage || f instanceof ParsedBatch) && f?.jsonrpc !== '2.0')
        fail('parseFrame gave neither a message, a batch nor an InvalidMessage', text);
    },
  },
  {
    name: 'sse-reader',
    files: /sse-reader\.js|eventsource-parser/,
    seeds: [
      'data: x\n\n',
      'id: s.1\nevent: message\ndata: {"jsonrpc":"2.0"}\n\n',
      'retry: 1000\n\n',
      ': keep-alive\n\n',
      'data: a\r\ndata: b\r\n\r\n',
      '\uFEFFdata:x\rid:1\r\r',
    ],
    dictionary: [
      'data:',
      'id:',
      'event:',
      'retry:',
      'data',
      ':',
      ' ',
      '\n',
      '\r',
      '\r\n',
      '\n\n',
      'message',
      '1000',
      '-1',
      '\uFEFF',
      '\u0000',
      'x'.repeat(70),
    ],
    async run(text) {
      const events = [];
      // A small bound, so the too-large path is reachable from short inputs.
      const error = await readSse(
        replyOf(text),
        { event: (e) => events.push(e), retry: () => undefined },
        64,
      );
      if (error !== undefined && !(error instanceof LocalError)) fail(`readSse ended with ${error}`, text);
      for (const e of events) if (typeof e.data !== 'string') fail('an event without string data', text);
    },
  },
  {
    name: 'http-handler',
    files: /\/dist\/transports\/http-server\//,
    seeds: [
      'POST\ncontent-type: application/json\naccept: application/json, text/event-stream\n\n{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}',
      'POST\ncontent-type: application/json\naccept: application/json, text/event-stream\nmcp-protocol-version: 2026-07-28\nmcp-method: tools/list\n\n{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
      'GET\naccept: text/event-stream\nmcp-session-id: x\nlast-event-id: s.1\n\n',
      'DELETE\nmcp-session-id: x\n\n',
      'POST\ncontent-type: application/json\naccept: application/json\nmcp-protocol-version: 2025-03-26\n\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    ],
    dictionary: [
      'POST',
      'GET',
      'DELETE',
      '\n',
      '\n\n',
      ': ',
      'content-type',
      'accept',
      'mcp-session-id',
      'mcp-protocol-version',
      'last-event-id',
      'origin',
      'mcp-method',
      'mcp-name',
      'application/json',
      'text/event-stream',
      '2025-11-25',
      '2025-03-26',
      '2026-07-28',
      '"method"',
      '"initialize"',
      '"tools/call"',
      '"ping"',
      '"id"',
      '"params"',
      '"_meta"',
      '{',
      '}',
    ],
    async run(text) {
      http ??= (() => {
        const server = createEverythingServer({ stepMs: 1 });
        return { server, ...fetchHandler(server, { maxBodyBytes: 64 * 1024 }) };
      })();
      // First line: the method; then header lines up to a blank line; then the body.
      const [head, ...rest] = text.split('\n\n');
      const [first, ...lines] = head.split('\n');
      const method = METHODS.find((m) => m === first.trim()) ?? METHODS[first.length % METHODS.length];
      const headers = new Headers();
      for (const l of lines) {
        const at = l.indexOf(':');
        const name = (at < 0 ? l : l.slice(0, at)).trim().toLowerCase();
        const value = at < 0 ? '' : l.slice(at + 1).trim();
        if (/^[a-z0-9-]+$/.test(name) && /^[\x20-\x7e]*$/.test(value)) headers.append(name, value);
      }
      const init = { method, headers };
      if (method === 'POST' || method === 'PUT') init.body = rest.join('\n\n');
      const ac = new AbortController();
      const res = await http.fetch(new Request('http://127.0.0.1/mcp', { ...init, signal: ac.signal }));
      ac.abort();
      await res.body?.cancel().catch(() => undefined);
      if (!STATUSES.has(res.status)) fail(`status ${res.status}`, text);
    },
  },
  {
    name: 'uri-template',
    files: /\/dist\/server\/uri-template\.js/,
    seeds: [
      'test://x/{id}',
      'search://q{?query,limit}',
      'x{/seg*}',
      '{+path}/here{#frag}',
      'file{.ext}{;p,q}{&more*}',
      'a{var:3}b',
    ],
    dictionary: [
      '{',
      '}',
      '+',
      '#',
      '.',
      '/',
      ';',
      '?',
      '&',
      '*',
      ':3',
      ',',
      '%20',
      '%',
      'var',
      '=',
      '\u00e9',
    ],
    run(text) {
      let t;
      try {
        t = UriTemplate.parse(text);
      } catch (e) {
        if (!(e instanceof Error)) fail('parse threw a non-Error', text);
        return;
      }
      t.match(text);
      const vars = {};
      for (const [, name] of text.matchAll(/[{,]([A-Za-z0-9_]+)/g))
        vars[name] = name.length % 2 ? 'v a/l' : ['x', 'y'];
      const uri = t.expand(vars);
      if (typeof uri !== 'string') fail('expand gave no string', text);
      t.match(uri);
    },
  },
];
