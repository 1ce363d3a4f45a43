// Targets of the coverage-guided loop (guided.mjs): each takes one string, throws when an
// invariant breaks, and names the compiled files whose blocks guide it and the fast-check
// target (targets.mjs) it is compared with. Imported only after coverage has started, so
// that every function of these modules is compiled with block counters.
import { InvalidMessage, LocalError, ParsedBatch, parseFrame } from '../../dist/jsonrpc/index.js';
import { readSse } from '../../dist/transports/http-client/sse-reader.js';
import { UriTemplate } from '../../dist/server/uri-template.js';

const fail = (what, input) => {
  throw new Error(`${what} for ${JSON.stringify(input)}`);
};

/** A reply whose body is `text` cut into three pieces at points the text itself picks. */
function replyOf(text) {
  const a = text.length ? text.charCodeAt(0) % (text.length + 1) : 0;
  const b = a + (text.length ? text.charCodeAt(text.length - 1) % (text.length - a + 1) : 0);
  const parts = [text.slice(0, a), text.slice(a, b), text.slice(b)];
  return {
    status: 200,
    statusText: 'OK',
    header: () => null,
    headers: () => new Headers(),
    bytes: async () => new Uint8Array(),
    discard: () => undefined,
    read: async (onText) => {
      for (const p of parts) if (onText(p) === false) return;
    },
  };
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
