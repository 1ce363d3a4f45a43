/**
 * The postMessage transport in Node: a real MessageChannel between two sessions, and the
 * window mode's origin and source checks with MessageEvents dispatched on an EventTarget
 * (the Chromium tests in host/apps cover real windows and iframes).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../session/index.js';
import { PostMessageTransport } from './index.js';

describe('PostMessageTransport over a MessagePort', () => {
  test('carries requests, answers and notifications between two sessions', async () => {
    const { port1, port2 } = new MessageChannel();
    const a = new Session({ role: 'client', info: { name: 'a', version: '1' } });
    const b = new Session({ role: 'client', info: { name: 'b', version: '1' } });
    b.setRequestHandler('ui/echo', (params) => ({ echoed: params.text }));
    const seen: unknown[] = [];
    b.setNotificationHandler('ui/notifications/hello', (params) => void seen.push(params));
    await a.connect(new PostMessageTransport({ target: port1 }));
    await b.connect(new PostMessageTransport({ target: port2 }));
    assert.deepEqual(await a.request('ui/echo', { text: 'hi' }), { echoed: 'hi' });
    await a.notify('ui/notifications/hello', { n: 1 });
    assert.deepEqual(await a.request('ping'), {});
    assert.deepEqual(seen, [{ n: 1 }]);
    await a.close();
    await b.close();
  });

  test('a value structured clone cannot copy fails the send, not the process', async () => {
    const { port1, port2 } = new MessageChannel();
    const t = new PostMessageTransport({ target: port1 });
    t.start({ frame: () => undefined, closed: () => undefined });
    await assert.rejects(
      t.send({ jsonrpc: '2.0', method: 'x', params: { f: () => 1 } as never }),
      (e: Error & { code?: string }) => e.code === 'InvalidMessage',
    );
    await t.close();
    port2.close();
    await assert.rejects(t.send({ jsonrpc: '2.0', method: 'x' }), /closed/);
  });
});

describe('PostMessageTransport on a window', () => {
  function harness(options: { allowedOrigins?: string[]; targetOrigin?: string } = {}) {
    const posted: Array<[unknown, string]> = [];
    const peer = { postMessage: (m: unknown, o: string) => posted.push([m, o]) } as unknown as Window;
    const other = {} as Window;
    const bus = new EventTarget();
    const frames: unknown[] = [];
    const rejected: string[] = [];
    const t = new PostMessageTransport({
      target: peer,
      targetOrigin: options.targetOrigin ?? 'https://sandbox.test',
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      listenOn: bus as unknown as Window,
      onrejected: (_e, why) => rejected.push(why),
    });
    t.start({ frame: (f) => frames.push(f), closed: () => undefined });
    const deliver = (data: unknown, origin: string, source: unknown) =>
      bus.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
    return { t, peer, other, posted, frames, rejected, deliver };
  }

  test('posts to the target origin and accepts only its origin and window', async () => {
    const h = harness();
    await h.t.send({ jsonrpc: '2.0', method: 'm' });
    assert.deepEqual(h.posted, [[{ jsonrpc: '2.0', method: 'm' }, 'https://sandbox.test']]);
    const msg = { jsonrpc: '2.0', method: 'ok' };
    h.deliver(msg, 'https://sandbox.test', h.peer);
    h.deliver(msg, 'https://evil.test', h.peer);
    h.deliver(msg, 'https://sandbox.test', h.other);
    h.deliver({ type: 'webpackOk' }, 'https://sandbox.test', h.peer);
    assert.deepEqual(h.frames, [msg]);
    assert.deepEqual(h.rejected, ['origin', 'source']);
    await h.t.close();
    h.deliver(msg, 'https://sandbox.test', h.peer);
    assert.equal(h.frames.length, 1, 'nothing is delivered after close');
  });

  test('an opaque-origin peer is reached with "*" and named by "null"', () => {
    const h = harness({ targetOrigin: '*', allowedOrigins: ['null'] });
    h.deliver({ jsonrpc: '2.0', method: 'a' }, 'null', h.peer);
    h.deliver({ jsonrpc: '2.0', method: 'b' }, 'https://x.test', h.peer);
    assert.equal(h.frames.length, 1);
  });

  test('refuses a window target without a target origin, or "*" without allowed origins', () => {
    const peer = { postMessage: () => undefined } as unknown as Window;
    assert.throws(() => new PostMessageTransport({ target: peer }), /targetOrigin/);
    assert.throws(() => new PostMessageTransport({ target: peer, targetOrigin: '*' }), /allowedOrigins/);
  });
});
