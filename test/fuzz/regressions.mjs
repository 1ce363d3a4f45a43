// Inputs that once broke (or could break) a parser, checked on every run. Each entry names
// what it guards against.
import assert from 'node:assert/strict';
import { InvalidMessage, parseFrame } from '../../dist/jsonrpc/index.js';
import { parseWwwAuthenticate } from '../../dist/auth/client/www-authenticate.js';
import { AuthError } from '../../dist/auth/errors.js';
import { discover } from '../../dist/auth/client/discovery.js';
import { GuardedFetch } from '../../dist/auth/client/guarded-fetch.js';
import { requireS256 } from '../../dist/auth/client/authorization-code.js';
import { fetchHandler } from '../../dist/transports/http-server/fetch-adapter.js';
import { createEverythingServer } from '../../dist/demo/everything-server.js';

/** A fetch serving fixed JSON documents by URL, 404 elsewhere. */
const site = (routes) =>
  new GuardedFetch({
    policy: {},
    fetch: async (url) =>
      routes[String(url)] === undefined
        ? new Response('', { status: 404 })
        : Response.json(routes[String(url)]),
  });
const AS = {
  issuer: 'https://m.example',
  authorization_endpoint: 'https://m.example/authorize',
  token_endpoint: 'https://m.example/token',
  code_challenge_methods_supported: ['S256'],
};

export const regressions = [
  {
    name: 'a modern notification POST (params with the 2026-07-28 _meta) is answered 202, not left hanging',
    check: async () => {
      // Found by the coverage-guided loop (guided.mjs, http-handler): it was dispatched as a
      // request, and its HTTP response never came.
      const server = createEverythingServer({ stepMs: 1 });
      const { fetch, handler } = fetchHandler(server, {});
      try {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
        });
        const answer = fetch(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2026-07-28',
              'mcp-method': 'tools/list',
            },
            body,
          }),
        );
        let timer;
        const late = new Promise(
          (resolve) => (timer = setTimeout(() => resolve('no answer in 10 s'), 10_000)),
        );
        const r = await Promise.race([answer, late]);
        clearTimeout(timer);
        assert.equal(r?.status, 202, String(r));
      } finally {
        await handler.close();
        await server.close();
      }
    },
  },
  {
    name: 'deep JSON (100,000 levels) is an error answer, not a crash',
    check: () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const f = parseFrame(deep);
      assert.ok(f instanceof InvalidMessage || Array.isArray(f) || typeof f === 'object');
    },
  },
  {
    name: 'a huge string field in an otherwise valid request parses in linear time',
    check: () => {
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'x'.repeat(8 << 20) },
      });
      // Against JSON.parse of the same text in the same run, so a loaded machine cannot fail it.
      let t = performance.now();
      JSON.parse(big);
      const floor = performance.now() - t;
      t = performance.now();
      parseFrame(big);
      const ms = performance.now() - t;
      assert.ok(ms < 1000 + 20 * floor, `${ms.toFixed(0)} ms (JSON.parse: ${floor.toFixed(0)} ms)`);
    },
  },
  {
    name: 'WWW-Authenticate with 10,000 commas and quotes stays fast',
    check: () => {
      const t = performance.now();
      parseWwwAuthenticate('Bearer ' + ',"\\'.repeat(10_000));
      assert.ok(performance.now() - t < 1000);
    },
  },
  {
    name: 'oauth-metadata fuzzer: a legacy AS document whose issuer is {"toString":1} is an AuthError',
    check: async () => {
      const fetcher = site({
        'https://m.example/.well-known/oauth-authorization-server': { ...AS, issuer: { toString: 1 } },
      });
      await assert.rejects(
        discover(fetcher, new URL('https://m.example/mcp'), undefined),
        (e) => e instanceof AuthError,
      );
    },
  },
  {
    name: 'oauth-metadata fuzzer: code_challenge_methods_supported [{"toString":1}] is an AuthError',
    check: () => {
      assert.throws(
        () => requireS256({ ...AS, code_challenge_methods_supported: [{ toString: 1 }] }),
        (e) => e instanceof AuthError && e.code === 'PkceNotSupported',
      );
    },
  },
  {
    name: 'www-auth-roundtrip fuzzer: a parameter named constructor or __proto__ is kept',
    check: () => {
      const [c] = parseWwwAuthenticate('x constructor="", __proto__="b"');
      assert.deepEqual(Object.entries(c.params), [
        ['constructor', ''],
        ['__proto__', 'b'],
      ]);
    },
  },
];
