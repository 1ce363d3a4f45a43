/**
 * The timeline's pairing: requests with their answers by id and direction, per server;
 * progress by token; the server's requests and log lines under the request running then;
 * MRTR rounds by `requestState`; task polls and status by `taskId`; the odd ones out
 * (answers to nothing, frames that did not parse) kept at the top.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTimeline, durationOf } from './timeline-model.js';
import type { TimelineMessage } from './timeline-model.js';

function wire(...rows: Array<[number, 'in' | 'out', unknown, string?]>): TimelineMessage[] {
  return rows.map(([time, dir, message, server], i) => ({
    seq: i + 1,
    time,
    dir,
    message,
    server: server ?? 's',
  }));
}
const req = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, params });
const res = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });
const note = (method: string, params?: unknown) => ({ jsonrpc: '2.0', method, params });

describe('timeline pairing', () => {
  test('a call with its progress, a nested sampling request, a log line, and its answer', () => {
    const roots = buildTimeline(
      wire(
        [0, 'out', req(1, 'tools/call', { name: 'ask', _meta: { progressToken: 't1' } })],
        [5, 'in', note('notifications/progress', { progressToken: 't1', progress: 1, total: 2 })],
        [6, 'in', req(0, 'sampling/createMessage', { messages: [] })],
        [7, 'in', note('notifications/message', { level: 'info', data: 'thinking' })],
        [9, 'out', res(0, { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' })],
        [10, 'in', note('notifications/progress', { progressToken: 't1', progress: 2, total: 2 })],
        [12, 'in', res(1, { content: [], isError: true })],
        [13, 'in', note('notifications/tools/list_changed')],
      ),
    );
    assert.equal(roots.length, 2);
    const [call, changed] = roots as [(typeof roots)[0], (typeof roots)[0]];
    assert.equal(call.method, 'tools/call');
    assert.equal(call.status, 'tool-error');
    assert.equal(call.final, 'tool-error');
    assert.equal(durationOf(call), 12);
    assert.deepEqual(
      call.children.map((c) => [c.kind, c.method]),
      [
        ['progress', 'notifications/progress'],
        ['server-request', 'sampling/createMessage'],
        ['log', 'notifications/message'],
        ['progress', 'notifications/progress'],
      ],
    );
    const sampling = call.children[1]!;
    assert.equal(sampling.status, 'ok');
    assert.equal(sampling.end, 9);
    assert.equal(sampling.inferred, true, 'nothing on the wire links them: placed by time, and said so');
    assert.equal(changed.kind, 'notification');
    assert.equal(changed.children.length, 0);
  });

  test('ids pair by server and direction: the same id both ways and on two servers stays apart', () => {
    const roots = buildTimeline(
      wire(
        [0, 'out', req(0, 'tools/list'), 'a'],
        [1, 'out', req(0, 'tools/list'), 'b'],
        [2, 'in', req(0, 'roots/list'), 'a'],
        [3, 'in', { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'no' } }, 'b'],
        [4, 'out', res(0, { roots: [] }), 'a'],
        [5, 'in', res(0, { tools: [] }), 'a'],
      ),
    );
    const [a, b] = roots as [(typeof roots)[0], (typeof roots)[0]];
    assert.equal(a.server, 'a');
    assert.equal(a.status, 'ok');
    assert.equal(a.end, 5);
    assert.equal(a.children[0]!.method, 'roots/list');
    assert.equal(a.children[0]!.end, 4);
    assert.equal(b.status, 'error');
    assert.equal(b.code, -32601);
  });

  test('MRTR: the retries with requestState sit under the first request, which ends with the last', () => {
    const roots = buildTimeline(
      wire(
        [0, 'out', req(1, 'tools/call', { name: 'book', arguments: {} })],
        [
          2,
          'in',
          res(1, {
            resultType: 'input_required',
            inputRequests: { q: { method: 'elicitation/create', params: {} } },
            requestState: 's1',
          }),
        ],
        [3, 'out', req(2, 'tools/call', { name: 'book', requestState: 's1', inputResponses: { q: {} } })],
        [5, 'in', res(2, { resultType: 'input_required', requestState: 's2' })],
        [6, 'out', req(3, 'tools/call', { name: 'book', requestState: 's2' })],
        [9, 'in', res(3, { resultType: 'complete', content: [] })],
        [10, 'out', req(4, 'tools/call', { name: 'book', arguments: {} })],
      ),
    );
    assert.equal(roots.length, 2, 'a new call of the same tool without requestState starts a new item');
    const call = roots[0]!;
    assert.equal(call.status, 'input-required');
    assert.equal(call.final, 'ok');
    assert.deepEqual(
      call.children.map((c) => [c.kind, c.status]),
      [
        ['input-round', 'input-required'],
        ['input-round', 'ok'],
      ],
    );
    assert.equal(durationOf(call), 9);
  });

  test('tasks: polls and status notifications by taskId under the call; the final is tasks/result', () => {
    for (const created of [
      { task: { taskId: 'T', status: 'working' } },
      { resultType: 'task', taskId: 'T', status: 'working' },
    ]) {
      const roots = buildTimeline(
        wire(
          [0, 'out', req(1, 'tools/call', { name: 'slow', task: { ttl: 1000 } })],
          [1, 'in', res(1, created)],
          [2, 'out', req(2, 'tasks/get', { taskId: 'T' })],
          [3, 'in', res(2, { taskId: 'T', status: 'working' })],
          [4, 'in', note('notifications/tasks/status', { taskId: 'T', status: 'completed' })],
          [5, 'out', req(3, 'tasks/result', { taskId: 'T' })],
          [8, 'in', { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'boom' } }],
        ),
      );
      assert.equal(roots.length, 1);
      const call = roots[0]!;
      assert.equal(call.status, 'task');
      assert.equal(call.final, 'error');
      assert.deepEqual(
        call.children.map((c) => c.method),
        ['tasks/get', 'notifications/tasks/status', 'tasks/result'],
      );
      assert.equal(durationOf(call), 8);
    }
  });

  test('cancellation goes under its request; an answer to nothing and a broken frame stay on top', () => {
    const roots = buildTimeline(
      wire(
        [0, 'out', req(7, 'tools/call', { name: 'x' })],
        [1, 'out', note('notifications/cancelled', { requestId: 7 })],
        [2, 'in', res(99, {})],
        [3, 'in', null, undefined],
      ).map((m, i) => (i === 3 ? { ...m, invalid: 'Parse error' } : m)),
    );
    assert.deepEqual(
      roots.map((r) => r.kind),
      ['request', 'orphan-response', 'invalid'],
    );
    assert.equal(roots[0]!.children[0]!.kind, 'cancel');
    assert.equal(roots[0]!.status, 'pending');
    assert.equal(durationOf(roots[0]!), undefined);
  });

  test('20,000 messages fold in linear time (a flood does not make the page quadratic)', () => {
    const rows: Array<[number, 'in' | 'out', unknown]> = [[0, 'out', req(1, 'tools/call', { name: 'f' })]];
    for (let i = 0; i < 20_000; i++) rows.push([i, 'in', note('notifications/message', { data: i })]);
    rows.push([20_001, 'in', res(1, { content: [] })]);
    const roots = buildTimeline(wire(...rows));
    assert.equal(roots.length, 1);
    assert.equal(roots[0]!.children.length, 20_000);
  });
});
