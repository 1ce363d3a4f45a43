import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertWireMessage,
  resultDefinitionFor,
  schemaFixtureDir,
  schemaRevisions,
  validateDefinition,
  validateWireMessage,
  wireMethods,
} from './wire-schema.js';

const MODERN = '2026-07-28';
const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
const ALL = [...LEGACY, MODERN];

/** Asserts that some problem contains `fragment`, showing all problems otherwise. */
function assertProblem(problems: string[], fragment: string): void {
  assert.ok(
    problems.some((p) => p.includes(fragment)),
    `expected a problem containing ${JSON.stringify(fragment)}, got:\n${problems.join('\n')}`,
  );
}

function loadExamples(): Array<{ definition: string; file: string; value: unknown }> {
  const dir = join(schemaFixtureDir(), MODERN, 'examples');
  const out: Array<{ definition: string; file: string; value: unknown }> = [];
  for (const definition of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, definition)).sort()) {
      if (!file.endsWith('.json')) continue;
      const value: unknown = JSON.parse(readFileSync(join(dir, definition, file), 'utf8'));
      out.push({ definition, file, value });
    }
  }
  return out;
}

const response = (result: unknown, id: string | number = 1) => ({ jsonrpc: '2.0', id, result });

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('wire-schema fixtures', () => {
  it('vendors every revision mcpkit speaks', () => {
    assert.deepEqual(schemaRevisions(), ALL);
  });

  it('rejects an unknown revision loudly', () => {
    assert.throws(() => validateWireMessage('1999-01-01', {}), /no schema for revision/);
    assert.throws(() => validateWireMessage('../etc', {}), /no schema for revision/);
  });
});

describe('method → result table', () => {
  for (const revision of ALL) {
    it(`covers every request of ${revision}`, () => {
      const requests = wireMethods(revision).filter((m) => m.kind === 'request');
      assert.ok(requests.length >= 10, `only ${requests.length} requests found`);
      for (const { method } of requests) {
        const def = resultDefinitionFor(revision, method);
        assert.ok(def, `${revision}: no result definition for ${method}`);
        // Throws when the revision has no such definition.
        assert.doesNotThrow(() => validateDefinition(revision, def, {}), `${revision}: ${def}`);
      }
    });
  }

  it('maps the irregular names', () => {
    assert.equal(resultDefinitionFor('2024-11-05', 'tools/call'), 'CallToolResult');
    assert.equal(resultDefinitionFor('2024-11-05', 'initialize'), 'InitializeResult');
    assert.equal(resultDefinitionFor('2024-11-05', 'ping'), 'EmptyResult');
    assert.equal(resultDefinitionFor('2025-06-18', 'logging/setLevel'), 'EmptyResult');
    assert.equal(resultDefinitionFor('2025-06-18', 'resources/subscribe'), 'EmptyResult');
    assert.equal(resultDefinitionFor('2025-06-18', 'resources/unsubscribe'), 'EmptyResult');
    assert.equal(resultDefinitionFor('2025-06-18', 'elicitation/create'), 'ElicitResult');
    assert.equal(resultDefinitionFor('2025-11-25', 'tasks/result'), 'GetTaskPayloadResult');
    assert.equal(resultDefinitionFor(MODERN, 'server/discover'), 'DiscoverResult');
    assert.equal(resultDefinitionFor(MODERN, 'subscriptions/listen'), 'SubscriptionsListenResult');
    assert.equal(resultDefinitionFor(MODERN, 'ping'), undefined);
  });

  it('agrees with the FooResultResponse definitions of 2026-07-28', () => {
    const schema = JSON.parse(readFileSync(join(schemaFixtureDir(), MODERN, 'schema.json'), 'utf8')) as {
      $defs: Record<string, { properties?: { result?: unknown } }>;
    };
    let checked = 0;
    for (const { method, kind } of wireMethods(MODERN)) {
      if (kind !== 'request') continue;
      const def = resultDefinitionFor(MODERN, method);
      const responseDef = schema.$defs[`${def}Response`];
      if (responseDef === undefined) continue;
      const refs = JSON.stringify(responseDef.properties?.result);
      assert.ok(refs.includes(`"#/$defs/${def}"`), `${def}Response does not reference ${def}`);
      checked++;
    }
    assert.ok(checked >= 10, `only ${checked} response definitions checked`);
  });
});

/**
 * Official examples that pass the definition they are filed under but are not valid wire
 * messages. `ReadResourceResultResponse.result` is `anyOf [InputRequiredResult,
 * ReadResourceResult]`, and `InputRequiredResult` only requires a string `resultType`, so the
 * definition accepts a `complete` result that lacks the `ttlMs`/`cacheScope` that
 * `ReadResourceResult` (a `CacheableResult`) requires. The validator dispatches on
 * `resultType` and reports it.
 */
const KNOWN_EXAMPLE_PROBLEMS: Record<string, string[]> = {
  'ReadResourceResultResponse/read-resource-result-response.json': [
    "ReadResourceResult: /result must have required property 'cacheScope'",
    "ReadResourceResult: /result must have required property 'ttlMs'",
  ],
};

describe(`official ${MODERN} examples`, () => {
  const examples = loadExamples();
  const requests = wireMethods(MODERN).filter((m) => m.kind === 'request');
  const methodOfResult = new Map(
    requests.map((m) => [resultDefinitionFor(MODERN, m.method), m.method] as const),
  );
  const wireByDefinition = new Map(wireMethods(MODERN).map((m) => [m.definition, m]));

  it('has examples to check', () => {
    assert.ok(examples.length >= 100, `only ${examples.length} examples`);
  });

  it('each example validates against the definition it is filed under', () => {
    for (const { definition, file, value } of examples) {
      assert.deepEqual(validateDefinition(MODERN, definition, value), [], `${definition}/${file}`);
    }
  });

  it('each example that is (or is the result of) a wire message validates as one', () => {
    let wireChecks = 0;
    for (const { definition, file, value } of examples) {
      const wire = wireByDefinition.get(definition);
      const responseOf = methodOfResult.get(definition.replace(/Response$/, ''));
      const known = KNOWN_EXAMPLE_PROBLEMS[`${definition}/${file}`];
      if (known) {
        const problems = validateWireMessage(MODERN, value, { respondingTo: responseOf });
        assert.deepEqual(problems, known, `${definition}/${file}`);
      } else if (wire) {
        assertWireMessage(MODERN, value, { sender: wire.senders[0] ?? 'client' });
      } else if (definition.endsWith('ResultResponse') && responseOf) {
        assertWireMessage(MODERN, value, { respondingTo: responseOf, sender: 'server' });
      } else if (methodOfResult.has(definition)) {
        const respondingTo = methodOfResult.get(definition);
        assertWireMessage(MODERN, response(value), { respondingTo, sender: 'server' });
      } else if (definition === 'InputRequiredResult') {
        for (const respondingTo of ['tools/call', 'prompts/get', 'resources/read']) {
          assertWireMessage(MODERN, response(value), { respondingTo, sender: 'server' });
        }
      } else if (typeof value === 'object' && value !== null && 'jsonrpc' in value) {
        assertWireMessage(MODERN, value, { sender: 'server' });
      } else {
        continue;
      }
      wireChecks++;
    }
    assert.ok(wireChecks >= 30, `only ${wireChecks} examples checked as wire messages`);
  });
});

describe('legacy revisions: valid messages', () => {
  for (const revision of LEGACY) {
    it(`accepts a lifecycle and tools exchange in ${revision}`, () => {
      const client = { sender: 'client' as const };
      assertWireMessage(
        revision,
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: revision,
            capabilities: { roots: { listChanged: true } },
            clientInfo: { name: 'test-client', version: '1.0.0' },
          },
        },
        client,
      );
      assertWireMessage(
        revision,
        response(
          {
            protocolVersion: revision,
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: 'test-server', version: '1.0.0' },
            instructions: 'Be nice.',
          },
          0,
        ),
        { respondingTo: 'initialize', sender: 'server' },
      );
      assertWireMessage(revision, { jsonrpc: '2.0', method: 'notifications/initialized' }, client);
      assertWireMessage(revision, { jsonrpc: '2.0', id: 'a', method: 'tools/list' }, client);
      assertWireMessage(
        revision,
        response(
          {
            tools: [
              {
                name: 'echo',
                description: 'Echoes its input',
                inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
              },
            ],
            nextCursor: 'page-2',
          },
          'a',
        ),
        { respondingTo: 'tools/list', sender: 'server' },
      );
      assertWireMessage(
        revision,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 7 } },
        },
        client,
      );
      assertWireMessage(revision, response({ content: [{ type: 'text', text: 'hi' }], isError: false }, 2), {
        respondingTo: 'tools/call',
        sender: 'server',
      });
      assertWireMessage(revision, { jsonrpc: '2.0', id: 3, method: 'ping' }, { sender: 'server' });
      assertWireMessage(revision, response({}, 3), { respondingTo: 'ping', sender: 'client' });
      assertWireMessage(
        revision,
        { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found' } },
        { sender: 'server' },
      );
      assertWireMessage(
        revision,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
        { sender: 'server' },
      );
    });
  }

  it('accepts batches in 2025-03-26 only', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    assert.deepEqual(validateWireMessage('2025-03-26', batch, { sender: 'client' }), []);
    assert.deepEqual(validateWireMessage('2025-03-26', [response({}, 1)]), []);
    assertProblem(validateWireMessage('2025-06-18', batch), 'batches do not exist');
    assertProblem(
      validateWireMessage('2025-03-26', [batch[0], response({}, 9)]),
      'mixes requests or notifications with responses',
    );
  });

  it('accepts a task-augmented tools/call answer in 2025-11-25', () => {
    const task = {
      taskId: 't-1',
      status: 'working',
      createdAt: '2025-11-25T00:00:00Z',
      lastUpdatedAt: '2025-11-25T00:00:00Z',
      ttl: null,
    };
    assert.deepEqual(
      validateWireMessage('2025-11-25', response({ task }), { respondingTo: 'tools/call' }),
      [],
    );
    assertProblem(
      validateWireMessage('2025-11-25', response({ task: { taskId: 't-1' } }), {
        respondingTo: 'tools/call',
      }),
      "CreateTaskResult: /result/task must have required property 'status'",
    );
  });
});

describe('invalid messages are reported', () => {
  for (const revision of ALL) {
    it(`wrong types and missing fields in ${revision}`, () => {
      const params = revision === MODERN ? { _meta: modernMeta } : {};
      assertProblem(
        validateWireMessage(revision, {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { ...params, name: 42 },
        }),
        'CallToolRequest: /params/name must be string',
      );
      assertProblem(
        validateWireMessage(revision, response({ resultType: 'complete', content: 'not an array' }), {
          respondingTo: 'tools/call',
        }),
        'CallToolResult: /result/content must be array',
      );
      assertProblem(
        validateWireMessage(revision, response({ resultType: 'complete', tools: [{}] }), {
          respondingTo: 'tools/list',
        }),
        "ListToolsResult: /result/tools/0 must have required property 'name'",
      );
      assertProblem(
        validateWireMessage(revision, { jsonrpc: '1.0', id: 1, method: 'tools/list', params }),
        '/jsonrpc must be equal to constant "2.0"',
      );
      assertProblem(
        validateWireMessage(revision, { jsonrpc: '2.0', id: 1.5, method: 'tools/list', params }),
        '/id must be',
      );
      assertProblem(
        validateWireMessage(revision, {
          jsonrpc: '2.0',
          id: 1,
          error: { code: 'oops', message: 'x' },
        }),
        '/error/code must be integer',
      );
      assertProblem(
        validateWireMessage(revision, { jsonrpc: '2.0', method: 'tools/call', params }),
        'tools/call is a request in revision',
      );
      assertProblem(validateWireMessage(revision, 'hello'), 'must be an object');
      assertProblem(validateWireMessage(revision, { jsonrpc: '2.0', id: 1 }), 'no method');
      assertProblem(
        validateWireMessage(revision, { jsonrpc: '2.0', id: 1, method: 'x/custom' }),
        'method x/custom does not exist in revision ' + revision,
      );
    });
  }

  for (const revision of LEGACY) {
    it(`initialize without protocolVersion in ${revision}`, () => {
      assertProblem(
        validateWireMessage(revision, {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        }),
        "InitializeRequest: /params must have required property 'protocolVersion'",
      );
      assertProblem(
        validateWireMessage(revision, response({ capabilities: {} }), {
          respondingTo: 'initialize',
        }),
        "InitializeResult: /result must have required property 'serverInfo'",
      );
    });

    it(`server/discover does not exist in ${revision}`, () => {
      assert.deepEqual(validateWireMessage(revision, { jsonrpc: '2.0', id: 1, method: 'server/discover' }), [
        `/method method server/discover does not exist in revision ${revision}`,
      ]);
      assertProblem(
        validateWireMessage(revision, response({}), { respondingTo: 'server/discover' }),
        `respondingTo: method server/discover does not exist in revision ${revision}`,
      );
    });
  }

  it('a method from a later revision: elicitation/create in 2025-03-26', () => {
    assertProblem(
      validateWireMessage('2025-03-26', {
        jsonrpc: '2.0',
        id: 1,
        method: 'elicitation/create',
        params: { message: 'm', requestedSchema: { type: 'object', properties: {} } },
      }),
      'method elicitation/create does not exist in revision 2025-03-26',
    );
  });

  it('methods removed in 2026-07-28', () => {
    for (const method of ['ping', 'initialize', 'logging/setLevel', 'resources/subscribe']) {
      assert.deepEqual(
        validateWireMessage(MODERN, {
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { _meta: modernMeta },
        }),
        [`/method method ${method} does not exist in revision ${MODERN}`],
      );
    }
    assertProblem(
      validateWireMessage(MODERN, { jsonrpc: '2.0', method: 'notifications/initialized' }),
      `method notifications/initialized does not exist in revision ${MODERN}`,
    );
    assertProblem(
      validateWireMessage(MODERN, response({ resultType: 'complete' }), { respondingTo: 'ping' }),
      `respondingTo: method ping does not exist in revision ${MODERN}`,
    );
  });

  it('2026-07-28 input requests are not JSON-RPC requests', () => {
    assertProblem(
      validateWireMessage(MODERN, {
        jsonrpc: '2.0',
        id: 1,
        method: 'sampling/createMessage',
        params: { messages: [], maxTokens: 10 },
      }),
      'is not sent as a JSON-RPC request or notification in revision 2026-07-28',
    );
  });

  it('2026-07-28 results need resultType', () => {
    assertProblem(
      validateWireMessage(MODERN, response({ content: [] })),
      "JSONRPCResultResponse: /result must have required property 'resultType'",
    );
    assertProblem(
      validateWireMessage(MODERN, response({ content: [] }), { respondingTo: 'tools/call' }),
      "CallToolResult: /result must have required property 'resultType'",
    );
    assertProblem(
      validateWireMessage(
        MODERN,
        response({ supportedVersions: [MODERN], capabilities: {}, ttlMs: 0, cacheScope: 'public' }),
        { respondingTo: 'server/discover' },
      ),
      "DiscoverResult: /result must have required property 'resultType'",
    );
  });

  it('2026-07-28 cacheable results need ttlMs and cacheScope', () => {
    assertProblem(
      validateWireMessage(MODERN, response({ resultType: 'complete', tools: [] }), {
        respondingTo: 'tools/list',
      }),
      "ListToolsResult: /result must have required property 'ttlMs'",
    );
  });

  it('2026-07-28 requests need the per-request _meta', () => {
    assertProblem(
      validateWireMessage(MODERN, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
      "/params/_meta must have required property 'io.modelcontextprotocol/protocolVersion'",
    );
    assertProblem(
      validateWireMessage(MODERN, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      "ListToolsRequest: / must have required property 'params'",
    );
  });

  it('2026-07-28 input_required only where the schema allows it', () => {
    const inputRequired = response({ resultType: 'input_required', requestState: 'abc' });
    for (const respondingTo of ['tools/call', 'prompts/get', 'resources/read']) {
      assert.deepEqual(validateWireMessage(MODERN, inputRequired, { respondingTo }), []);
    }
    assertProblem(
      validateWireMessage(MODERN, inputRequired, { respondingTo: 'tools/list' }),
      'tools/list cannot be answered with input_required',
    );
    assertProblem(
      validateWireMessage(
        MODERN,
        response({ resultType: 'input_required', inputRequests: { a: { method: 'nope' } } }),
        { respondingTo: 'tools/call' },
      ),
      'InputRequiredResult: /result/inputRequests/a',
    );
  });

  it('2026-07-28 error codes with their own definitions', () => {
    assertProblem(
      validateWireMessage(MODERN, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32021, message: 'Missing capability' },
      }),
      "MissingRequiredClientCapabilityError: /error must have required property 'data'",
    );
    assert.deepEqual(
      validateWireMessage(MODERN, {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32021,
          message: 'Missing capability',
          data: { requiredCapabilities: { sampling: {} } },
        },
      }),
      [],
    );
  });

  it('direction: who sends what', () => {
    assertProblem(
      validateWireMessage(
        '2025-06-18',
        { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
        { sender: 'client' },
      ),
      'the client does not send notifications/tools/list_changed',
    );
    assertProblem(
      validateWireMessage(
        '2025-06-18',
        { jsonrpc: '2.0', id: 1, method: 'roots/list' },
        { sender: 'client' },
      ),
      'the client does not send roots/list',
    );
    assertProblem(
      validateWireMessage('2025-06-18', response({ roots: [] }), {
        respondingTo: 'roots/list',
        sender: 'server',
      }),
      'the server never answers roots/list',
    );
    assert.deepEqual(
      validateWireMessage('2025-06-18', response({ roots: [] }), {
        respondingTo: 'roots/list',
        sender: 'client',
      }),
      [],
    );
  });
});

describe('problems are readable', () => {
  it('reports only the union member the value was meant to be', () => {
    const problems = validateWireMessage(
      '2025-06-18',
      response({
        content: [
          { type: 'text', text: 5 },
          { type: 'image', data: 'AAAA' },
        ],
      }),
      { respondingTo: 'tools/call' },
    );
    assert.deepEqual(problems, [
      'CallToolResult: /result/content/0/text must be string (as TextContent)',
      "CallToolResult: /result/content/1 must have required property 'mimeType' (as ImageContent)",
    ]);
  });

  it('narrows nested unions and inline members', () => {
    const problems = validateWireMessage(
      MODERN,
      response({
        resultType: 'input_required',
        inputRequests: {
          a: {
            method: 'sampling/createMessage',
            params: { maxTokens: 5, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
          },
        },
      }),
      { respondingTo: 'tools/call' },
    );
    assert.deepEqual(problems, [
      'InputRequiredResult: /result/inputRequests/a/params/messages/0/content/0 ' +
        "must have required property 'text' (as CreateMessageRequest > TextContent)",
    ]);
  });
});

describe('assertWireMessage', () => {
  it('passes silently on a valid message', () => {
    assert.doesNotThrow(() => assertWireMessage('2025-06-18', { jsonrpc: '2.0', id: 1, method: 'ping' }));
  });

  it('throws with the problems and the message JSON', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'ping' };
    assert.throws(
      () => assertWireMessage(MODERN, message, { sender: 'client' }),
      (err: unknown) => {
        assert.ok(err instanceof Error);
        assert.match(err.message, /MCP 2026-07-28 schema \(sender client\)/);
        assert.match(err.message, /method ping does not exist in revision 2026-07-28/);
        assert.ok(err.message.includes(JSON.stringify(message, null, 2)));
        return true;
      },
    );
  });
});
