// Fuzz targets: fast-check properties over the parsers that face untrusted input. Each
// target is { name, property() } where property() returns a fast-check async or sync
// property; the runner decides how long each one runs. Any counterexample found becomes a
// regression case in regressions.mjs.
import fc from 'fast-check';
import { InvalidMessage, ParsedBatch, parseFrame } from '../../dist/jsonrpc/index.js';
import { LineFramer } from '../../dist/transports/stdio/line-framer.js';
import { sseEvent } from '../../dist/transports/http-server/sse-format.js';
import { readSse } from '../../dist/transports/http-client/sse-reader.js';
import { fetchHandler } from '../../dist/transports/http-server/fetch-adapter.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';
import { UriTemplate } from '../../dist/server/uri-template.js';
import { ConfigError, parseHostConfig } from '../../dist/host/index.js';
import { bearerChallengeOf, parseWwwAuthenticate } from '../../dist/auth/client/www-authenticate.js';
import { scriptedReply } from './scripted-reply.mjs';
import { oauthTargets } from './oauth-targets.mjs';

const enc = new TextEncoder();

/** Splits `bytes` at the given cut points (sorted, deduplicated, in range). */
function split(bytes, cuts) {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

const jsonText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 6 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: v })),
  fc.constantFrom('[]', '[1]', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":null,"result":{}}', '"'),
);

/** A fetch handler over the demo server, shared by the HTTP target. */
let http;
function httpHandler() {
  if (!http) {
    const server = createEverythingServer({ stepMs: 1 });
    http = { server, ...fetchHandler(server, { maxBodyBytes: 64 * 1024 }) };
  }
  return http;
}

export const targets = [
  {
    name: 'jsonrpc-envelope',
    what: 'parseFrame never throws; every result is a message, a batch or an InvalidMessage',
    property: () =>
      fc.property(jsonText, (text) => {
        const f = parseFrame(text);
        if (f instanceof InvalidMessage || f instanceof ParsedBatch) return true;
        return f.jsonrpc === '2.0';
      }),
  },
  {
    name: 'stdio-framer',
    what: 'lines split into arbitrary chunks come out whole and in order; oversize lines are reported',
    property: () =>
      fc.property(
        fc.array(
          fc.string({ maxLength: 80 }).map((s) => s.replace(/[\r\n]/g, ' ')),
          { maxLength: 20 },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (lines, cuts) => {
          const got = [];
          let oversize = 0;
          const framer = new LineFramer(64, {
            line: (b) => got.push(Buffer.from(b).toString('utf8')),
            oversize: () => oversize++,
          });
          const bytes = enc.encode(lines.map((l) => l + '\n').join(''));
          for (const chunk of split(bytes, cuts)) framer.push(chunk);
          const expected = lines.filter((l) => l.trim() !== '' && enc.encode(l).length <= 64);
          const tooLong = lines.filter((l) => enc.encode(l).length > 64).length;
          return (
            JSON.stringify(got.map((l) => l.replace(/\r$/, ''))) === JSON.stringify(expected) &&
            oversize === tooLong
          );
        },
      ),
  },
  {
    name: 'sse-reader',
    what: 'events written by the server, cut anywhere, are read back whole by the client reader',
    property: () =>
      fc.asyncProperty(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (values, cuts) => {
          const text = values.map((v, i) => sseEvent(JSON.stringify(v), `s.${i}`)).join('');
          const pieces = split(enc.encode(text), cuts).map((b) => new TextDecoder().decode(b));
          // Cut points inside a multi-byte character are re-joined by the decoder in a real
          // stream; here cuts fall on bytes, so decode the whole and re-split by characters.
          const chars = [...text];
          const charCuts = pieces.length > 1 ? cuts.map((c) => c % (chars.length + 1)) : [];
          const parts = [];
          let at = 0;
          for (const p of [...new Set(charCuts)].sort((a, b) => a - b)) {
            parts.push(chars.slice(at, p).join(''));
            at = p;
          }
          parts.push(chars.slice(at).join(''));
          const got = [];
          const reply = scriptedReply(parts);
          const error = await readSse(reply, { event: (e) => got.push(e) });
          if (error !== undefined) return false;
          return (
            got.length === values.length &&
            got.every((e, i) => e.id === `s.${i}` && e.data === JSON.stringify(values[i]))
          );
        },
      ),
  },
  {
    name: 'http-handler',
    what: 'random methods, headers and bodies: an answer from the known set, never 500, never a throw',
    property: () =>
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'OPTIONS'),
        fc.dictionary(
          fc.constantFrom(
            'content-type',
            'accept',
            'mcp-session-id',
            'mcp-protocol-version',
            'last-event-id',
            'origin',
            'mcp-method',
            'mcp-name',
          ),
          fc.oneof(
            fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
            fc.constantFrom(
              'application/json',
              'application/json, text/event-stream',
              '2025-11-25',
              '2026-07-28',
            ),
          ),
        ),
        jsonText,
        async (method, headers, body) => {
          const { fetch } = httpHandler();
          const init = { method, headers };
          if (method === 'POST' || method === 'PUT') init.body = body;
          const ac = new AbortController();
          const res = await fetch(new Request('http://127.0.0.1/mcp', { ...init, signal: ac.signal }));
          const ok = [200, 202, 400, 403, 404, 405, 406, 409, 413, 415, 429].includes(res.status);
          ac.abort();
          await res.body?.cancel().catch(() => undefined);
          return ok;
        },
      ),
  },
  {
    name: 'uri-template',
    what: 'parse throws only Error for bad templates; for {var} templates, match(expand(v)) gives v back',
    property: () =>
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.array(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), { minLength: 1, maxLength: 3 }),
        fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,12}$/), { minLength: 3, maxLength: 3 }),
        (garbage, names, values) => {
          try {
            UriTemplate.parse(garbage).match(garbage);
          } catch (e) {
            if (!(e instanceof Error)) return false;
          }
          const unique = [...new Set(names)];
          const t = UriTemplate.parse('test://x/' + unique.map((n) => `{${n}}`).join('/'));
          const vars = Object.fromEntries(unique.map((n, i) => [n, values[i]]));
          const m = t.match(t.expand(vars));
          return m !== null && unique.every((n) => m[n] === vars[n]);
        },
      ),
  },
  {
    name: 'config-parse',
    what: 'any JSON value: a config or a ConfigError, nothing else',
    property: () =>
      fc.property(
        fc.oneof(
          fc.jsonValue({ maxDepth: 5 }),
          fc.dictionary(fc.constantFrom('a', 'b', 'files'), fc.jsonValue({ maxDepth: 3 })).map((servers) => ({
            mcpServers: servers,
          })),
        ),
        (input) => {
          try {
            parseHostConfig(input, { env: {} });
            return true;
          } catch (e) {
            return e instanceof ConfigError;
          }
        },
      ),
  },
  {
    name: 'www-authenticate',
    what: 'any header value parses without throwing (time is checked on the worst cases in regressions.mjs)',
    property: () =>
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc
            .array(
              fc.constantFrom(
                'Bearer',
                'Basic',
                ' ',
                ',',
                '=',
                '"',
                '\\',
                'realm',
                'scope="a b"',
                'error=invalid_token',
                'resource_metadata="https://x/.well-known/oauth-protected-resource"',
              ),
              { maxLength: 40 },
            )
            .map((a) => a.join('')),
        ),
        (value) => {
          parseWwwAuthenticate(value);
          bearerChallengeOf(new Headers({ 'www-authenticate': value.replace(/[^\x20-\x7e]/g, '') }));
          return true;
        },
      ),
  },
  ...oauthTargets,
];

/** Releases what the targets hold (the HTTP target's server). */
export async function closeTargets() {
  if (http) {
    await http.handler.close();
    await http.server.close();
    http = undefined;
  }
}
