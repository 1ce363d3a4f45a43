import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogLists, audienceOf } from './catalog-view.js';
import type { ListKey } from './catalog-view.js';
import { callerOf, compileVisibility } from './visibility.js';
import type { Visible } from './visibility.js';

const auth = (scopes: string[], claims: Record<string, unknown> = {}, sub = 'u') => ({
  subject: sub,
  issuer: 'https://as.test',
  scopes,
  audience: [],
  claims,
});

describe('visibility rules', () => {
  test('scopes are all-of; claims match a value, one of a list, or a member of a list claim', () => {
    const admin = compileVisibility(['a', 'b'], 't')!;
    assert.equal(admin(callerOf(auth(['a', 'b', 'c']))), true);
    assert.equal(admin(callerOf(auth(['a']))), false);
    const team = compileVisibility({ claims: { team: ['sec', 'ops'], tier: 2 } }, 't')!;
    assert.equal(team(callerOf(auth([], { team: 'ops', tier: 2 }))), true);
    assert.equal(team(callerOf(auth([], { team: ['sales', 'sec'], tier: 2 }))), true);
    assert.equal(team(callerOf(auth([], { team: 'sales', tier: 2 }))), false);
    assert.equal(team(callerOf(auth([], { team: 'ops', tier: '2' }))), false);
    assert.equal(team(callerOf(auth([], { team: 'ops' }))), false);
  });

  test('an unauthenticated caller holds no scope and no claim; a function decides for itself', () => {
    assert.equal(compileVisibility(['a'], 't')!(callerOf(undefined)), false);
    assert.equal(compileVisibility({ claims: { x: 'y' } }, 't')!(callerOf(undefined)), false);
    const local = compileVisibility((c) => c.authInfo === undefined, 't')!;
    assert.equal(local(callerOf(undefined)), true);
    assert.equal(local(callerOf(auth([]))), false);
  });

  test('a function sees the principal; one that throws or answers non-true hides the item', () => {
    const alice = compileVisibility((c) => c.principal?.subject === 'alice', 't')!;
    assert.equal(alice(callerOf(auth([], {}, 'alice'))), true);
    assert.equal(alice(callerOf(auth([], {}, 'bob'))), false);
    const broken = compileVisibility(() => {
      throw new Error('boom');
    }, 't')!;
    assert.equal(broken(callerOf(auth(['a']))), false);
    assert.equal(compileVisibility((() => 1) as never, 't')!(callerOf(undefined)), false);
  });

  test('a rule that names nothing, or scopes that are not strings, is refused at registration', () => {
    assert.throws(() => compileVisibility([], 'Tool x'), /Tool x: visibleTo names no scope/);
    assert.throws(() => compileVisibility({}, 'Tool x'), /names no scope/);
    assert.throws(() => compileVisibility([1] as never, 'Tool x'), /list of scopes/);
    assert.equal(compileVisibility(undefined, 'Tool x'), undefined);
  });
});

describe('catalog lists', () => {
  const entry = (name: string, rule?: Parameters<typeof compileVisibility>[0]): Visible => ({
    wire: { name },
    visible: compileVisibility(rule, name),
  });
  const lists = (tools: Visible[]) => {
    const maps = {
      tools: new Map(tools.map((t) => [(t.wire as { name: string }).name, t])),
      resources: new Map(),
      resourceTemplates: new Map(),
      prompts: new Map(),
    } as Record<ListKey, Map<string, Visible>>;
    return new CatalogLists(maps);
  };

  test('without rules every caller gets the one cached array: nothing is built per request', () => {
    const c = lists([entry('a'), entry('b')]);
    const first = c.visible('tools', { authInfo: auth(['x']) });
    assert.equal(c.visible('tools', { authInfo: undefined }), first);
    assert.equal(c.visible('tools', { authInfo: auth([]) }), first);
    assert.equal(c.hasRules('tools'), false);
  });

  test('with rules, callers passing the same rules share one subset, in list order', () => {
    const c = lists([entry('a'), entry('h', ['admin']), entry('b'), entry('k', { claims: { t: 'k' } })]);
    const admin1 = c.visible('tools', { authInfo: auth(['admin']) });
    const admin2 = c.visible('tools', { authInfo: auth(['admin', 'other']) });
    assert.equal(admin1, admin2);
    assert.deepEqual(
      admin1.map((e) => (e.wire as { name: string }).name),
      ['a', 'h', 'b'],
    );
    assert.deepEqual(
      c.visible('tools', { authInfo: auth([], { t: 'k' }) }).map((e) => (e.wire as { name: string }).name),
      ['a', 'b', 'k'],
    );
    assert.deepEqual(
      c.visible('tools', { authInfo: undefined }).map((e) => (e.wire as { name: string }).name),
      ['a', 'b'],
    );
  });

  test('a change is heard by everyone unless every entry it touched has a rule', () => {
    assert.equal(audienceOf(entry('a')), undefined);
    assert.equal(audienceOf(entry('h', ['x']), entry('a')), undefined);
    assert.equal(audienceOf(entry('h', ['x']), undefined)?.length, 1);
    assert.equal(audienceOf(entry('h', ['x']), entry('k', ['y']))?.length, 2);
  });
});
