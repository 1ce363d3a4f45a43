import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UriTemplate } from './uri-template.js';
import type { UriTemplateMatch, UriTemplateVariables } from './uri-template.js';

/** RFC 6570 section 3.2 example variables (associative arrays `keys`/`empty_keys` skipped). */
const RFC_VARS: UriTemplateVariables = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  undef: undefined,
};

/** [template, expected] from RFC 6570 sections 3.2.1 to 3.2.9 (without `keys` rows). */
const RFC_EXAMPLES: ReadonlyArray<readonly [string, string]> = [
  // 3.2.1 Variable Expansion
  ['{count}', 'one,two,three'],
  ['{count*}', 'one,two,three'],
  ['{/count}', '/one,two,three'],
  ['{/count*}', '/one/two/three'],
  ['{;count}', ';count=one,two,three'],
  ['{;count*}', ';count=one;count=two;count=three'],
  ['{?count}', '?count=one,two,three'],
  ['{?count*}', '?count=one&count=two&count=three'],
  ['{&count*}', '&count=one&count=two&count=three'],
  // 3.2.2 Simple String Expansion
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'],
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  // 3.2.3 Reserved Expansion
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['O{+empty}X', 'OX'],
  ['O{+undef}X', 'OX'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{+list*}', 'red,green,blue'],
  // 3.2.4 Fragment Expansion
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#half}', '#50%25'],
  ['foo{#empty}', 'foo#'],
  ['foo{#undef}', 'foo'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  // 3.2.5 Label Expansion with Dot-Prefix
  ['{.who}', '.fred'],
  ['{.who,who}', '.fred.fred'],
  ['{.half,who}', '.50%25.fred'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.var}', 'X.value'],
  ['X{.empty}', 'X.'],
  ['X{.undef}', 'X'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  // 3.2.6 Path Segment Expansion
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var}', '/value'],
  ['{/var,empty}', '/value/'],
  ['{/var,undef}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  // 3.2.7 Path-Style Parameter Expansion
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  // 3.2.8 Form-Style Query Expansion
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?x,y,undef}', '?x=1024&y=768'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  // 3.2.9 Form-Style Query Continuation
  ['{&who}', '&who=fred'],
  ['{&half}', '&half=50%25'],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
];

describe('UriTemplate.expand', () => {
  for (const [template, expected] of RFC_EXAMPLES) {
    test(`RFC 6570: ${template}`, () => {
      assert.equal(UriTemplate.parse(template).expand(RFC_VARS), expected);
    });
  }

  test('encodes non-ASCII as UTF-8 and counts the prefix in code points', () => {
    assert.equal(UriTemplate.parse('{x}').expand({ x: 'é' }), '%C3%A9');
    assert.equal(UriTemplate.parse('{x:2}').expand({ x: '😀😀😀' }), '%F0%9F%98%80%F0%9F%98%80');
    assert.equal(UriTemplate.parse('{+x}').expand({ x: '%41%zz' }), '%41%25zz');
  });

  test('encodes literal characters outside the URI character set', () => {
    assert.equal(UriTemplate.parse('a b/{x}').expand({ x: 'y' }), 'a%20b/y');
  });

  test('ignores inherited properties and empty lists', () => {
    assert.equal(UriTemplate.parse('x{constructor}{/toString}').expand({}), 'x');
    assert.equal(UriTemplate.parse('x{/a*}{?b}').expand({ a: [], b: [] }), 'x');
  });
});

describe('UriTemplate.parse', () => {
  test('exposes the template and the distinct variable names in order', () => {
    const t = UriTemplate.parse('search://{host}/q{?query,limit}{&host}');
    assert.equal(t.template, 'search://{host}/q{?query,limit}{&host}');
    assert.deepEqual(t.variableNames, ['host', 'query', 'limit']);
    assert.deepEqual(UriTemplate.parse('{a.b,%41_1:3,c*}').variableNames, ['a.b', '%41_1', 'c']);
  });

  const malformed: ReadonlyArray<readonly [string, RegExp]> = [
    ['x/{id', /Unclosed '\{' at index 2/],
    ['x/{a{b}', /Unclosed '\{'/],
    ['x}/{a}', /Unmatched '\}' at index 1/],
    ['{}', /Empty expression/],
    ['{=a}', /Unsupported operator '='/],
    ['{!a}', /Unsupported operator '!'/],
    ['{|a}', /Unsupported operator '\|'/],
    ['{$a}', /Unsupported operator '\$'/],
    ['{a,}', /Empty variable name/],
    ['{+}', /Empty variable name/],
    ['{a,:3}', /Empty variable name/],
    ['{a:0}', /Invalid prefix length/],
    ['{a:10000}', /Invalid prefix length/],
    ['{a:x}', /Invalid prefix length/],
    ['{a b}', /Invalid variable name 'a b'/],
    ['{a.}', /Invalid variable name/],
    ['{a..b}', /Invalid variable name/],
    ['{a%2}', /Invalid variable name/],
    ['{a:3*}', /Invalid variable name/],
    ['x'.repeat(10_001), /longer than 10000/],
    ['{a}'.repeat(101), /more than 100 expressions/],
  ];
  for (const [template, message] of malformed) {
    test(`rejects ${JSON.stringify(template.slice(0, 20))}`, () => {
      assert.throws(() => UriTemplate.parse(template), message);
    });
  }

  test('accepts templates right at the limits', () => {
    assert.equal(UriTemplate.parse('x'.repeat(10_000)).variableNames.length, 0);
    assert.equal(UriTemplate.parse('{a}'.repeat(100)).variableNames.length, 1);
  });
});

function expectMatch(template: string, uri: string, expected: UriTemplateMatch | null): void {
  assert.deepEqual(UriTemplate.parse(template).match(uri), expected, `${template} ~ ${uri}`);
}

describe('UriTemplate.match', () => {
  test('simple {var}: one value with no unencoded reserved characters', () => {
    const t = 'test://template/{id}/data';
    expectMatch(t, 'test://template/123/data', { id: '123' });
    expectMatch(t, 'test://template/a%20b%2Fc/data', { id: 'a b/c' });
    expectMatch(t, 'test://template/%C3%A9/data', { id: 'é' });
    expectMatch(t, 'test://template/1/2/data', null);
    expectMatch(t, 'test://template/a:b/data', null);
    expectMatch(t, 'test://template/a,b/data', null);
    expectMatch(t, 'test://template//data', {});
    expectMatch(t, 'test://template/123/dat', null);
    expectMatch(t, 'test://other/123/data', null);
  });

  test('invalid percent-encoding is no match, never a throw', () => {
    expectMatch('x/{id}', 'x/%ZZ', null);
    expectMatch('x/{id}', 'x/%4', null);
    expectMatch('x/{id}', 'x/%FF', null);
    expectMatch('x/{+id}', 'x/%C3', null);
    expectMatch('x{?q}', 'x?q=%E0%A4', null);
  });

  test('{a,b} and {list*}: comma-separated values', () => {
    expectMatch('{x,y}', '1024,768', { x: '1024', y: '768' });
    expectMatch('{x,y}', '1024', { x: '1024' });
    expectMatch('?{x,y}', '?1024,', { x: '1024', y: '' });
    expectMatch('{x,y}', '1,2,3', null);
    expectMatch('{list*}', 'red,green,blue', { list: ['red', 'green', 'blue'] });
    expectMatch('{x,list*}', '1,red,green', { x: '1', list: ['red', 'green'] });
  });

  test('{+var}: reserved characters allowed, including /', () => {
    expectMatch('file:///{+path}', 'file:///a/b/c.txt', { path: 'a/b/c.txt' });
    expectMatch('file:///{+path}', 'file:///a%20b/c?d=e#f', { path: 'a b/c?d=e#f' });
    expectMatch('file:///{+path}', 'file:///a b', null);
    expectMatch('{+path}/here', '/foo/bar/here', { path: '/foo/bar' });
    expectMatch('{+x,y}', '1/2,3', { x: '1/2', y: '3' });
  });

  test('a literal after an expression ends it at its leftmost occurrence', () => {
    expectMatch('{+path}/here', '/a/here/b/here', null);
    expectMatch('{+path}/x/{id}', 'a/b/x/c', { path: 'a/b', id: 'c' });
  });

  test('{#var}: fragment', () => {
    expectMatch('page{#frag}', 'page#sec/1!', { frag: 'sec/1!' });
    expectMatch('page{#frag}', 'page', {});
    expectMatch('{#path,x}/here', '#/foo/bar,1024/here', { path: '/foo/bar', x: '1024' });
  });

  test('{.var}: dot-prefixed labels', () => {
    expectMatch('file{.ext}', 'file.txt', { ext: 'txt' });
    expectMatch('file{.ext}', 'file', {});
    expectMatch('file{.ext}', 'file.tar.gz', null);
    expectMatch('www{.dom*}', 'www.example.com', { dom: ['example', 'com'] });
    expectMatch('X{.list}', 'X.red,green,blue', { list: ['red', 'green', 'blue'] });
  });

  test('{/var} and {/var*}: path segments', () => {
    expectMatch('x{/var}', 'x/a', { var: 'a' });
    expectMatch('x{/var}', 'x/a%2Fb', { var: 'a/b' });
    expectMatch('x{/var}', 'x/a/b', null);
    expectMatch('x{/var}', 'x', {});
    expectMatch('x{/a,b}', 'x/1/2', { a: '1', b: '2' });
    expectMatch('x{/seg*}', 'x/a/b/c', { seg: ['a', 'b', 'c'] });
    expectMatch('x{/seg*}', 'x/a', { seg: ['a'] });
    expectMatch('x{/list}', 'x/red,green', { list: ['red', 'green'] });
    expectMatch('x{/seg*}/end', 'x/a/b/end', { seg: ['a', 'b'] });
  });

  test('{;var}: path-style parameters, any order', () => {
    expectMatch('{;x,y}', ';x=1024;y=768', { x: '1024', y: '768' });
    expectMatch('{;x,y}', ';y=768;x=1024', { y: '768', x: '1024' });
    expectMatch('{;v,empty,who}', ';v=6;empty;who=fred', { v: '6', empty: '', who: 'fred' });
    expectMatch('{;list*}', ';list=red;list=green', { list: ['red', 'green'] });
    expectMatch('{;x}', ';z=1', null);
  });

  test('{?a,b} and {&a,b}: query parameters, any order, missing ones absent', () => {
    const t = 'search://q{?query,limit}';
    expectMatch(t, 'search://q?query=hello%20world&limit=10', {
      query: 'hello world',
      limit: '10',
    });
    expectMatch(t, 'search://q?limit=10&query=x', { limit: '10', query: 'x' });
    expectMatch(t, 'search://q?limit=10', { limit: '10' });
    expectMatch(t, 'search://q', {});
    expectMatch(t, 'search://q?query=', { query: '' });
    expectMatch(t, 'search://q?query', { query: '' });
    expectMatch(t, 'search://q?other=1', null);
    expectMatch(t, 'search://q?query=a&query=b', null);
    expectMatch(t, 'search://q?query=a=b', null);
    expectMatch(t, 'search://q?query=a/b', null);
    expectMatch('{?list}', '?list=red,green,blue', { list: ['red', 'green', 'blue'] });
    expectMatch('{?list*}', '?list=red&list=green', { list: ['red', 'green'] });
    expectMatch('?fixed=yes{&x,y}', '?fixed=yes&y=2&x=1', { y: '2', x: '1' });
  });

  test('back-to-back expressions', () => {
    expectMatch('x{/path*}{?q}', 'x/a/b?q=1', { path: ['a', 'b'], q: '1' });
    expectMatch('file://{+path}{?q}', 'file:///a/b?q=1', { path: '/a/b', q: '1' });
    expectMatch('file://{+path}{?q}', 'file:///a/b', { path: '/a/b' });
    expectMatch('{?a}{&b}', '?a=1&b=2', { a: '1', b: '2' });
    expectMatch('{a}{/b}', 'x/y', { a: 'x', b: 'y' });
  });

  test('a variable used twice must have the same value', () => {
    expectMatch('{a}/{a}', 'x/x', { a: 'x' });
    expectMatch('{a}/{a}', 'x/y', null);
  });

  test('template without expressions, and own properties only', () => {
    expectMatch('test://fixed', 'test://fixed', {});
    expectMatch('test://fixed', 'test://fixed/', null);
    const result = UriTemplate.parse('x/{__proto__}').match('x/1');
    assert.ok(result !== null && Object.hasOwn(result, '__proto__'));
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
  });

  test('URIs longer than 64 KiB are rejected', () => {
    const t = UriTemplate.parse('{+a}');
    assert.deepEqual(t.match('a'.repeat(65_536)), { a: 'a'.repeat(65_536) });
    assert.equal(t.match('a'.repeat(65_537)), null);
  });

  test('hostile inputs are matched or rejected in linear time (CVE-2026-0621)', () => {
    const a50k = 'a'.repeat(50_000);
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['{a}{b}{c}', a50k + '!'],
      ['x{a},{b},{c}y', 'x' + a50k + '!'],
      ['x{a},{b},{c}y', 'x' + 'a,'.repeat(25_000) + '!'],
      ['{/a*}', '/a'.repeat(25_000) + '!'],
      ['{/a*}{/b*}{/c*}', '/a'.repeat(25_000) + '!'],
      ['{?a,b,c}', '?a=' + a50k + '!'],
      ['{?a*}', '?' + 'a=1&'.repeat(12_500) + '!'],
      ['{+a}{+b}{+c}', a50k + ' '],
      ['{+a}{?b}{+c}{?d}', '/a'.repeat(12_500) + '?b=' + 'a'.repeat(25_000) + '! '],
      ['{+a}{#b}'.repeat(50), 'a'.repeat(60_000) + ' '],
      ['{a}{/b}{.c}{;d}{?e}{&f}{#g}', a50k + '!'],
      ['{a}/{b}/{c}/{d}/{e}', 'a/'.repeat(25_000) + '!'],
      ['test://template/{id}/data', 'test://template/' + a50k + '/dat'],
    ];
    for (const [template, uri] of cases) {
      assert.ok(uri.length <= 64 * 1024, 'input must get past the length cap');
      const t = UriTemplate.parse(template);
      // Best of three, so a GC pause or a cold JIT cannot flake the test. The bound is loose
      // for a loaded CI machine (typical: ~2 ms; no wall-clock bound under 1 s); a
      // backtracking matcher takes far longer on these inputs.
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const started = performance.now();
        assert.equal(t.match(uri), null, template);
        best = Math.min(best, performance.now() - started);
      }
      assert.ok(best < 1000, `${template} took ${best.toFixed(1)} ms`);
    }
  });
});

describe('UriTemplate round trip (fast-check)', () => {
  const UNRESERVED = [...'ABCXYZabcxyz0189-._~'];
  const LITERAL = [...":@!$()'*"];
  const valueArb = fc.string({ unit: fc.constantFrom(...UNRESERVED), minLength: 1, maxLength: 6 });
  const listArb = fc.array(valueArb, { minLength: 1, maxLength: 3 });
  const exprArb = fc.record({
    op: fc.constantFrom('', '+', '/', '?'),
    count: fc.integer({ min: 1, max: 3 }),
    explodeLast: fc.boolean(),
    literal: fc.string({ unit: fc.constantFrom(...LITERAL), minLength: 1, maxLength: 3 }),
  });
  const caseArb = fc
    .record({
      prefix: fc.constantFrom('', 'test://x/', 'file:///', 'a-b.c/'),
      exprs: fc.array(exprArb, { minLength: 1, maxLength: 4 }),
      trailingLiteral: fc.boolean(),
    })
    .chain(({ prefix, exprs, trailingLiteral }) => {
      let template = prefix;
      const arbs: Record<string, fc.Arbitrary<string | string[]>> = {};
      exprs.forEach((e, i) => {
        const specs: string[] = [];
        for (let j = 0; j < e.count; j++) {
          const name = `v${i}_${j}`;
          const explode = e.explodeLast && j === e.count - 1;
          specs.push(explode ? `${name}*` : name);
          arbs[name] = explode ? listArb : valueArb;
        }
        template += `{${e.op}${specs.join(',')}}`;
        if (i < exprs.length - 1 || trailingLiteral) template += e.literal;
      });
      return fc.tuple(fc.constant(template), fc.record(arbs));
    });

  test('match(expand(v)) returns v', () => {
    fc.assert(
      fc.property(caseArb, ([template, vars]) => {
        const t = UriTemplate.parse(template);
        const uri = t.expand(vars);
        // fc.record builds null-prototype objects; match returns plain ones.
        assert.deepEqual(t.match(uri), { ...vars }, `${template} -> ${uri}`);
      }),
      { numRuns: 300 },
    );
  });
});
