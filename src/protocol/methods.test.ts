/**
 * The one method table: every descriptor is reachable by name, typed requests carry their
 * params and result types (checked at compile time), and MRTR eligibility is the `mrtr`
 * flag, read, not a second list.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  METHODS,
  Method,
  capabilityInRevision,
  describeMethod,
  isMrtrMethod,
  methodInRevision,
} from './methods.js';
import type { ParamsOf, ResultOf, WireResult } from './methods.js';
import type {
  CallToolResult,
  InputRequiredMethod,
  InputRequiredResult,
  ListToolsRequestParams,
  ListToolsResult,
  RequestParamsOf,
  RequestResultOf,
} from './types/index.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typeChecks: [
  Same<ResultOf<(typeof Method)['tools/list']>, ListToolsResult>,
  Same<ParamsOf<(typeof Method)['tools/list']>, ListToolsRequestParams | undefined>,
  Same<WireResult<(typeof Method)['tools/call']>, CallToolResult | InputRequiredResult>,
  Same<WireResult<(typeof Method)['tools/list']>, ListToolsResult>,
  Same<InputRequiredMethod, 'tools/call' | 'prompts/get' | 'resources/read'>,
  Same<RequestParamsOf<'prompts/list'>, ParamsOf<(typeof Method)['prompts/list']>>,
  Same<RequestResultOf<'resources/read'>, ResultOf<(typeof Method)['resources/read']>>,
] = [true, true, true, true, true, true, true];

describe('the method table', () => {
  test('the compile-time checks above hold', () => {
    assert.ok(typeChecks.every((t) => t));
  });

  test('Method names every descriptor of METHODS, and describeMethod agrees', () => {
    const byName = Method as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(byName).sort(), METHODS.map((d) => d.method).sort());
    for (const d of METHODS) {
      assert.equal(byName[d.method], d);
      assert.equal(describeMethod(d.method), d);
    }
  });

  test('MRTR eligibility is the mrtr flag of client requests', () => {
    const flagged = METHODS.filter((d) => d.mrtr).map((d) => d.method);
    assert.deepEqual(flagged.sort(), ['prompts/get', 'resources/read', 'tools/call']);
    for (const d of METHODS) assert.equal(isMrtrMethod(d.method), d.mrtr === true);
    for (const d of METHODS.filter((m) => m.mrtr)) {
      assert.equal(d.kind, 'request');
      assert.equal(d.from, 'client');
    }
    assert.equal(isMrtrMethod('__proto__'), false);
    assert.equal(isMrtrMethod('skills/list'), false);
  });

  test('a revision has a method from its since to its removedIn, and a capability from its own since', () => {
    const tasksGet = Method['tasks/get'];
    assert.equal(methodInRevision(tasksGet, '2025-06-18'), false);
    assert.equal(methodInRevision(tasksGet, '2025-11-25'), true);
    assert.equal(methodInRevision(tasksGet, '2026-07-28'), true);
    assert.equal(methodInRevision(Method.initialize, '2026-07-28'), false);
    const completions = Method['completion/complete'].capability;
    assert.equal(capabilityInRevision(completions, '2024-11-05'), false);
    assert.equal(capabilityInRevision(completions, '2025-03-26'), true);
    assert.equal(capabilityInRevision(Method['prompts/get'].capability, '2024-11-05'), true);
  });

  test('descriptors are requests or notifications, as their names say', () => {
    for (const d of METHODS) {
      assert.equal(d.kind, d.method.startsWith('notifications/') ? 'notification' : 'request', d.method);
    }
  });
});
