import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalError } from '../jsonrpc/index.js';
import { EventQueue } from './event-queue.js';
import { HandlerSet, mergeCapabilities } from './handlers.js';
import type { HandlerContext } from './types.js';

const ctx: HandlerContext = {
  signal: new AbortController().signal,
  era: 'modern',
  protocolVersion: '2026-07-28',
};
const noop = () => ({ action: 'cancel' as const });

describe('HandlerSet capabilities', () => {
  test('nothing registered declares nothing', () => {
    assert.deepEqual(new HandlerSet(undefined).capabilities, {});
    assert.deepEqual(new HandlerSet({}).capabilities, {});
  });

  test('each handler declares its capability, with the options it was given', () => {
    const sampling = () => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: '' },
      model: 'm',
    });
    assert.deepEqual(new HandlerSet({ sampling, elicitation: noop, roots: [] }).capabilities, {
      sampling: {},
      elicitation: { form: {} },
      roots: { listChanged: true },
    });
    assert.deepEqual(
      new HandlerSet({
        sampling: { handler: sampling, tools: true, context: true },
        elicitation: { handler: noop, url: true },
      }).capabilities,
      { sampling: { tools: {}, context: {} }, elicitation: { form: {}, url: {} } },
    );
    assert.deepEqual(
      new HandlerSet({ elicitation: { handler: noop, form: false, url: true } }).capabilities,
      {
        elicitation: { url: {} },
      },
    );
  });

  test('explicit capabilities merge over derived ones', () => {
    assert.deepEqual(
      mergeCapabilities(
        { sampling: { tools: {} }, roots: { listChanged: true } },
        { sampling: { context: {} }, roots: { listChanged: false }, experimental: { a: {} } },
      ),
      {
        sampling: { tools: {}, context: {} },
        roots: { listChanged: false },
        experimental: { a: {} },
      },
    );
  });
});

describe('HandlerSet.answer', () => {
  test('missing handlers and unknown methods are local errors', async () => {
    const h = new HandlerSet({});
    for (const m of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
      await assert.rejects(
        h.answer(m, {}, ctx),
        (e: unknown) => e instanceof LocalError && e.code === 'HandlerMissing',
      );
    }
    await assert.rejects(
      h.answer('tools/call', {}, ctx),
      (e: unknown) => e instanceof LocalError && e.code === 'InvalidResult',
    );
  });

  test('handler results of the wrong shape are InvalidResult', async () => {
    const h = new HandlerSet({
      sampling: () => ({}) as never,
      elicitation: () => ({ action: 'maybe' }) as never,
      roots: () => ({ roots: 'x' }) as never,
    });
    for (const m of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
      await assert.rejects(
        h.answer(m, { message: 'm', requestedSchema: { type: 'object', properties: {} } }, ctx),
        (e: unknown) => e instanceof LocalError && e.code === 'InvalidResult',
      );
    }
  });

  test('roots given as a list are answered with copies of the list', async () => {
    const h = new HandlerSet({ roots: [{ uri: 'file:///a' }] });
    const r = await h.answer('roots/list', {}, ctx);
    assert.deepEqual(r, { roots: [{ uri: 'file:///a' }] });
    assert.ok(h.hasRoots);
  });

  test('replaceRoots (setRoots) wins over a roots function registered earlier', async () => {
    const h = new HandlerSet({ roots: () => ({ roots: [{ uri: 'file:///from-function' }] }) });
    h.replaceRoots([{ uri: 'file:///b', name: 'b' }]);
    assert.deepEqual(await h.answer('roots/list', {}, ctx), { roots: [{ uri: 'file:///b', name: 'b' }] });
  });
});

describe('EventQueue', () => {
  test('merges identical waiting events, delivers in order, ends after draining', async () => {
    const q = new EventQueue(async () => undefined);
    q.push({ kind: 'tools' });
    q.push({ kind: 'tools' });
    q.push({ kind: 'resource', uri: 'a' });
    q.push({ kind: 'resource', uri: 'b' });
    q.end();
    const got = [];
    for (let r = await q.next(); !r.done; r = await q.next()) got.push(r.value);
    assert.deepEqual(got, [
      { kind: 'tools' },
      { kind: 'resource', uri: 'a' },
      { kind: 'resource', uri: 'b' },
    ]);
  });

  test('a waiting consumer is woken by push, and by end with an error', async () => {
    const q = new EventQueue(async () => undefined);
    const p = q.next();
    q.push({ kind: 'prompts' });
    assert.deepEqual(await p, { value: { kind: 'prompts' }, done: false });
    const p2 = q.next();
    q.end(new Error('gone'));
    await assert.rejects(p2, /gone/);
    assert.equal((await q.next()).done, true);
  });

  test('return() closes through the owner', async () => {
    let closed = false;
    const q = new EventQueue(async () => {
      closed = true;
    });
    assert.deepEqual(await q.return(), { value: undefined, done: true });
    assert.ok(closed);
  });
});
