import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, InvalidMessage, parseFrame } from '../../jsonrpc/index.js';
import type { JsonRpcMessage, ParsedBatch } from '../../jsonrpc/index.js';
import { checkLegacyMirrors, mirroredNameOf } from './header-checks.js';
import { callsOf } from './request-authorizer.js';

const parsed = (value: unknown): JsonRpcMessage | ParsedBatch => {
  const frame = parseFrame(JSON.stringify(value));
  if (frame instanceof InvalidMessage) throw new Error('invalid test frame');
  return frame;
};
const call = (name: unknown, id = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name } });
const headers = (h: Record<string, string>) => (n: string) => h[n];
const b64 = (s: string) => `=?base64?${Buffer.from(s).toString('base64')}?=`;

describe('the calls an authorizer sees', () => {
  const connector = {
    connect: () => Promise.reject(new Error('unused')),
    toolScopes: (name: string) => (name === 'admin_reset' ? ['admin'] : undefined),
  };

  it('are read from the body: method, mirrored name, and the scopes a called tool declares', () => {
    const frame = parsed([
      call('admin_reset'),
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///a' } },
      { jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId: 't-1' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 9, result: {} },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: {} },
      'not a message',
    ]);
    assert.deepEqual(callsOf(frame, connector), [
      { method: 'tools/call', name: 'admin_reset', scopes: ['admin'] },
      { method: 'resources/read', name: 'file:///a', scopes: [] },
      { method: 'tasks/get', name: 't-1', scopes: [] },
      { method: 'notifications/cancelled', name: undefined, scopes: [] },
      { method: undefined, name: undefined, scopes: [] },
      { method: 'tools/call', name: undefined, scopes: [] },
    ]);
    assert.equal(mirroredNameOf({ method: 'prompts/get', params: { name: 'p' } }), 'p');
  });
});

describe('legacy Mcp-Method and Mcp-Name', () => {
  const mismatch = (frame: JsonRpcMessage | ParsedBatch, h: Record<string, string>) =>
    checkLegacyMirrors(frame, headers(h))?.code;

  it('are optional', () => {
    assert.equal(mismatch(parsed(call('a')), {}), undefined);
  });

  it('must agree with the body when sent, once decoded', () => {
    assert.equal(mismatch(parsed(call('a')), { 'mcp-method': 'tools/call', 'mcp-name': 'a' }), undefined);
    assert.equal(mismatch(parsed(call('a')), { 'mcp-name': b64('a') }), undefined);
    assert.equal(mismatch(parsed(call('a')), { 'mcp-method': 'tools/list' }), ErrorCode.HeaderMismatch);
    assert.equal(mismatch(parsed(call('a')), { 'mcp-name': 'b' }), ErrorCode.HeaderMismatch);
    assert.equal(mismatch(parsed(call('a')), { 'mcp-name': b64('b') }), ErrorCode.HeaderMismatch);
    assert.equal(mismatch(parsed(call('a')), { 'mcp-name': '=?base64?YQ?=' }), ErrorCode.HeaderMismatch);
  });

  it('must agree with every message of a batch, and a response has no method', () => {
    const batch = parsed([call('a', 1), call('b', 2)]);
    assert.equal(mismatch(batch, { 'mcp-method': 'tools/call' }), undefined);
    assert.equal(mismatch(batch, { 'mcp-name': 'a' }), ErrorCode.HeaderMismatch);
    const answer = parsed({ jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(mismatch(answer, { 'mcp-method': 'tools/list' }), ErrorCode.HeaderMismatch);
  });

  it('an Mcp-Name on a method without a name is ignored, as in the modern era', () => {
    const list = parsed({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(mismatch(list, { 'mcp-name': 'admin_reset' }), undefined);
  });
});
