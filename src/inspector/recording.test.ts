/**
 * The recording format and what replay and the catalog diff take from it: bad files
 * refused with the line at fault, a torn last line tolerated, the steps to send again
 * (without the session's own requests, MRTR rounds or task polls), the answers recorded
 * for the server's questions in both eras, and the catalog a recording saw.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diffCatalogs } from './catalog-diff.js';
import { diffJson } from './json-diff.js';
import {
  finalAnswer,
  messageLine,
  parseRecording,
  recordedAnswers,
  recordedCatalog,
  recordingHeader,
  replaySteps,
  RecordingError,
  serverLine,
} from './recording.js';
import type { TimelineMessage } from './timeline-model.js';

let seq = 0;
const msg = (dir: 'in' | 'out', message: unknown, server = 'demo'): string =>
  messageLine({ seq: ++seq, time: seq * 10, server, dir, message } satisfies TimelineMessage);
const header = recordingHeader('0.1.0', [{ name: 'demo', transport: 'stdio', target: 'node demo.js' }]);

function refused(text: string, pattern: RegExp, line?: number): void {
  assert.throws(
    () => parseRecording(text),
    (e: unknown) => {
      assert.ok(e instanceof RecordingError);
      assert.match(e.message, pattern);
      if (line !== undefined) assert.equal(e.line, line);
      return true;
    },
  );
}

describe('recording format', () => {
  test('bad recordings are refused with what is wrong and where', () => {
    refused('', /empty/);
    refused('{"not json', /line 1: not JSON/, 1);
    refused('[1,2]', /not a JSON object/, 1);
    refused('{"exportedAt":"x","messages":[]}', /Export JSON/, 1);
    refused(header.replace('"version":1', '"version":9'), /version 9 is newer .*upgrade mcpkit/, 1);
    refused(header.replace('"version":1', '"version":"1"'), /positive integer/, 1);
    refused(
      `${header}\n{"type":"message","server":"demo","dir":"sideways","time":1,"message":{}}\n{}`,
      /line 2: .*"dir"/,
      2,
    );
    refused(`${header}\n{"type":"message","server":"demo","dir":"in","message":{}}\n`, /line 2: .*"time"/, 2);
    refused(`${header}\nnot json\n${msg('in', {})}`, /line 2: not JSON/, 2);
  });

  test('a torn last line (the recorder stopped mid-write) is skipped with a warning', () => {
    const r = parseRecording(
      `\uFEFF${header}\n${msg('out', { jsonrpc: '2.0', id: 1, method: 'ping' })}\n{"type":"mess`,
    );
    assert.equal(r.messages.length, 1);
    assert.match(r.warnings[0]!, /line 3: not JSON.*torn last line/);
  });

  test('server lines complete the header; unknown line types and fields are ignored', () => {
    const r = parseRecording(
      [
        header,
        '{"type":"comment","text":"from the future"}',
        serverLine({
          name: 'demo',
          serverInfo: { name: 'x', version: '2' },
          protocolVersion: '2025-11-25',
          era: 'legacy',
        }),
      ].join('\n'),
    );
    assert.deepEqual(r.servers.get('demo'), {
      name: 'demo',
      transport: 'stdio',
      target: 'node demo.js',
      serverInfo: { name: 'x', version: '2' },
      protocolVersion: '2025-11-25',
      era: 'legacy',
    });
    assert.equal(r.header.mcpkit, '0.1.0');
  });

  test('replay steps: the client requests in order, less the session, rounds, polls and unanswered', () => {
    const r = parseRecording(
      [
        header,
        msg('out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
        msg('in', { jsonrpc: '2.0', id: 0, result: {} }),
        msg('out', {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'ask', arguments: {}, _meta: { progressToken: 1 } },
        }),
        msg('in', { jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: { message: 'name?' } }),
        msg('out', { jsonrpc: '2.0', id: 0, result: { action: 'accept', content: { name: 'ann' } } }),
        msg('in', {
          jsonrpc: '2.0',
          id: 1,
          result: {
            resultType: 'input_required',
            inputRequests: { s: { method: 'sampling/createMessage', params: {} } },
            requestState: 'st',
          },
        }),
        msg('out', {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: {
            name: 'ask',
            requestState: 'st',
            inputResponses: { s: { role: 'assistant', model: 'm' } },
          },
        }),
        msg('in', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } }),
        msg('out', { jsonrpc: '2.0', id: 3, method: 'tools/list' }),
        msg('in', {
          jsonrpc: '2.0',
          id: 3,
          result: { tools: [{ name: 'ask', inputSchema: { type: 'object' } }] },
        }),
        msg('out', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'never' } }),
      ].join('\n'),
    );
    const unanswered = { count: 0 };
    const steps = replaySteps(r, undefined, unanswered);
    assert.deepEqual(
      steps.map((s) => [s.method, s.params]),
      [
        ['tools/call', { name: 'ask', arguments: {} }],
        ['tools/list', undefined],
      ],
    );
    assert.equal(unanswered.count, 1);
    assert.deepEqual(finalAnswer(steps[0]!.node), {
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    const answers = recordedAnswers(r);
    assert.deepEqual(answers.get('elicitation/create'), [{ action: 'accept', content: { name: 'ann' } }]);
    assert.deepEqual(answers.get('sampling/createMessage'), [{ role: 'assistant', model: 'm' }]);
    assert.deepEqual(recordedCatalog(r, 'demo').tools, [{ name: 'ask', inputSchema: { type: 'object' } }]);
  });
});

describe('diffs', () => {
  test('JSON: paths of what was added, removed and changed; ignored keys; a limit', () => {
    assert.deepEqual(
      diffJson(
        { a: 1, b: [1, 2], _meta: { t: 1 } },
        { a: 2, b: [1], c: null, _meta: { t: 2 } },
        { ignoreKeys: ['_meta'] },
      ),
      [
        { path: 'a', kind: 'changed', before: 1, after: 2 },
        { path: 'b[1]', kind: 'removed', before: 2 },
        { path: 'c', kind: 'added', after: null },
      ],
    );
    assert.deepEqual(diffJson({ 'odd key': 1 }, { 'odd key': '1' }), [
      { path: '["odd key"]', kind: 'changed', before: 1, after: '1' },
    ]);
    assert.equal(
      diffJson(
        Array.from({ length: 100 }, (_, i) => i),
        [],
        { limit: 7 },
      ).length,
      7,
    );
    assert.deepEqual(diffJson({ x: [1, { y: 'z' }] }, { x: [1, { y: 'z' }] }), []);
  });

  test('catalog: added, removed, and changed with the fields that differ', () => {
    const before = {
      tools: [
        { name: 'a', description: 'A', inputSchema: { type: 'object' } },
        { name: 'gone', inputSchema: { type: 'object' } },
        { name: 'same', inputSchema: { type: 'object' } },
      ],
      resources: [{ uri: 'r://1', name: 'one' }],
      templates: [],
      prompts: [{ name: 'p', arguments: [] }],
    };
    const after = {
      tools: [
        {
          name: 'a',
          description: 'A, better',
          inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
          annotations: { readOnlyHint: true },
        },
        { name: 'same', inputSchema: { type: 'object' } },
        { name: 'new', inputSchema: { type: 'object' } },
      ],
      resources: [{ uri: 'r://1', name: 'one' }],
      templates: [{ uriTemplate: 'r://{id}', name: 't' }],
      prompts: [],
    };
    const changes = diffCatalogs(before, after);
    assert.deepEqual(
      changes.map((c) => [c.kind, c.key, c.change, c.fields]),
      [
        ['tool', 'a', 'changed', ['description', 'inputSchema', 'annotations']],
        ['tool', 'gone', 'removed', undefined],
        ['tool', 'new', 'added', undefined],
        ['template', 'r://{id}', 'added', undefined],
        ['prompt', 'p', 'removed', undefined],
      ],
    );
  });
});
