/**
 * Token passthrough at the gateway (the MCP specification forbids it): a caller's token is
 * for the gateway alone and must never reach an upstream server, and the gateway's own
 * upstream credential must never reach a caller, on success or on failure. Recording TCP
 * proxies sit on both links, so every byte that crossed them is inspected, whatever the
 * header, body or stream it was in. Real HTTP on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestAuthServer } from '../test-support/auth-test-server.js';
import { freePort } from '../test-support/cluster.js';
import {
  gatewayClient,
  resultText,
  startGateway,
  startUpstream,
  token,
} from '../test-support/gateway-harness.js';
import type { RunningGateway, Upstream } from '../test-support/gateway-harness.js';
import { startRecordingProxy } from '../test-support/recording-proxy.js';
import type { RecordingProxy } from '../test-support/recording-proxy.js';
import { waitFor } from '../test-support/waiting.js';

const UPSTREAM = token();
const CAROL = token();

let upstream: Upstream;
let as: TestAuthServer;
let gw: RunningGateway;
/** Between the gateway and the upstream server. */
let upLink: RecordingProxy;
/** Between the callers and the gateway. */
let downLink: RecordingProxy;
let url = '';
let jwt = '';

before(async () => {
  upstream = await startUpstream(UPSTREAM);
  upLink = await startRecordingProxy(upstream.port);
  as = await TestAuthServer.start({});
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  gw = await startGateway({
    upstreamUrl: `http://127.0.0.1:${upLink.port}/mcp`,
    upstreamToken: UPSTREAM,
    port,
    gateway: {
      auth: {
        tokens: { carol: CAROL },
        jwt: { issuer: as.issuer, audience, jwksUrl: `${as.issuer}/jwks` },
      },
    },
  });
  downLink = await startRecordingProxy(port);
  url = `http://127.0.0.1:${downLink.port}/mcp`;
  jwt = await as.sign({ sub: 'dave', aud: audience, client_id: 'app' });
});
after(async () => {
  await gw.close();
  await downLink.close();
  await upLink.close();
  await upstream.close();
  await as.close();
});

/** Everything a caller does: list, call with arguments, call a tool that echoes what it got. */
async function useGateway(bearer: string): Promise<string[]> {
  const client = await gatewayClient(url, bearer);
  try {
    const texts = [
      JSON.stringify(await client.listTools()),
      resultText(await client.callTool({ name: 'vault__read_secret', arguments: {} })),
      resultText(await client.callTool({ name: 'vault__echo', arguments: { note: 'hello' } })),
    ];
    return texts;
  } finally {
    await client.close();
  }
}

describe('token passthrough', () => {
  test("a caller's token never reaches the upstream server", async () => {
    for (const bearer of [CAROL, jwt]) {
      const texts = await useGateway(bearer);
      assert.match(texts[2]!, /"note":"hello"/);
      // The caller's token crossed the caller's link, and never the upstream one.
      assert.ok(downLink.sent().includes(bearer), 'the recorder sees the caller link');
      assert.equal(upLink.sent().includes(bearer), false, 'the caller token crossed to the upstream server');
      // Nor in any other encoding a forwarder might use.
      assert.equal(upLink.sent().includes(Buffer.from(bearer).toString('base64')), false);
      assert.equal(texts[2]!.includes(bearer), false);
    }
    // Every upstream request carried the gateway's own credential, and only that.
    assert.ok(upstream.requests.length > 0);
    for (const r of upstream.requests) {
      assert.equal(r.headers.authorization, `Bearer ${UPSTREAM}`);
      for (const [name, value] of Object.entries(r.headers))
        for (const bearer of [CAROL, jwt])
          assert.ok(!String(value).includes(bearer), `${name} carries a caller token`);
    }
  });

  test("the upstream server's token never reaches a caller, even when the upstream refuses it", async () => {
    await useGateway(CAROL);
    assert.ok(upLink.sent().includes(`Bearer ${UPSTREAM}`), 'the recorder sees the upstream link');
    // The upstream stops accepting the gateway's credential: the failure travels back.
    upstream.rotate(token());
    const client = await gatewayClient(url, CAROL);
    try {
      const failed = await client.callTool({ name: 'vault__read_secret', arguments: {} }).then(
        (r) => resultText(r),
        (e: unknown) => String(e),
      );
      assert.match(failed, /Could not send tools\/call/);
      // Reconnecting fails too (401): the server leaves the catalog, and callers are told.
      await waitFor(() => gw.host.health().find((h) => h.name === 'vault')?.state !== 'ready');
      const listed = await client.listTools().then(
        (r) => JSON.stringify(r),
        (e: unknown) => String(e),
      );
      assert.doesNotMatch(listed, /read_secret/);
    } finally {
      await client.close();
      upstream.rotate(UPSTREAM);
    }
    const toCallers = downLink.received();
    assert.equal(toCallers.includes(UPSTREAM), false, 'the upstream credential reached a caller');
    assert.equal(toCallers.includes(Buffer.from(UPSTREAM).toString('base64')), false);
  });
});
