/**
 * The role is an object the engine is given: the strings name the two built-in roles,
 * and everything that differs between the ends (built-in handlers, routing, outbound era
 * rules, result decoration, the handshake's last step) is asked of that object.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import { Method } from '../protocol/methods.js';
import type { ListToolsResult } from '../protocol/types/index.js';
import {
  SERVER_INFO,
  makeClient,
  makeServer,
  sessionPair,
  withRawPeer,
} from '../test-support/session-peers.js';
import { clientRole } from './client-role.js';
import { serverRole } from './server-role.js';
import type { SessionRole } from './session-role.js';
import { Session } from './session.js';

describe('session roles', () => {
  test("'client' and 'server' name the built-in role objects", () => {
    assert.equal(makeClient().session.role, clientRole);
    assert.equal(makeServer().session.role, serverRole);
    const s = new Session({ role: serverRole, info: { ...SERVER_INFO } });
    assert.equal(s.role, serverRole);
    assert.equal(clientRole.peer, 'server');
    assert.equal(serverRole.peer, 'client');
  });

  test('only the server answers server/discover and logging/setLevel itself; both answer ping', () => {
    assert.ok(serverRole.builtin('server/discover'));
    assert.ok(serverRole.builtin('logging/setLevel'));
    assert.ok(serverRole.builtin('ping'));
    assert.ok(clientRole.builtin('ping'));
    assert.equal(clientRole.builtin('server/discover'), undefined);
    assert.equal(clientRole.builtin('logging/setLevel'), undefined);
    assert.equal(serverRole.builtin('tools/list'), undefined);
  });

  test('the era refuses server requests in the modern era only', () => {
    const refusal = serverRole.refuseRequest('roots/list', 'modern', '2026-07-28');
    assert.ok(refusal instanceof LocalError);
    assert.equal(refusal.code, 'CapabilityNotSupported');
    assert.equal(serverRole.refuseRequest('roots/list', 'legacy', '2025-11-25'), undefined);
    assert.equal(clientRole.refuseRequest('tools/list', 'modern', '2026-07-28'), undefined);
  });

  test('notifications/initialized completes the handshake on a server only', () => {
    assert.equal(serverRole.afterInitialized('initializing'), 'ready');
    assert.equal(serverRole.afterInitialized('new'), 'new');
    assert.equal(clientRole.afterInitialized('initializing'), 'initializing');
  });

  test('the engine asks the role object it was given, not its name', async () => {
    const asked: string[] = [];
    const spying: SessionRole = {
      ...serverRole,
      builtin(method) {
        asked.push(`builtin ${method}`);
        return serverRole.builtin(method);
      },
      shapeAnswer(ctx, value, info) {
        asked.push(`shape ${ctx.method}`);
        return serverRole.shapeAnswer(ctx, value, info);
      },
    };
    const { peer } = await withRawPeer('server', { role: spying });
    const answer = await peer.call(1, 'ping', {});
    assert.deepEqual(answer.result, {});
    assert.deepEqual(asked, ['builtin ping', 'shape ping']);
  });

  test('a request made with a descriptor resolves to its typed result', async () => {
    const handlers = new Map([
      ['tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] })],
    ]);
    const { server, client } = await sessionPair(
      { capabilities: { tools: {} }, requestHandlers: handlers },
      {},
    );
    await client.initialize();
    const result: ListToolsResult = await client.request(Method['tools/list'], undefined);
    assert.equal(result.tools[0]?.name, 'echo');
    await client.close();
    await server.close();
  });
});
