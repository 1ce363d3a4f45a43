/**
 * The JSON Schema seam: Ajv and the interpreting validator give the same outcome and the same
 * issues for the same schema and value (2020-12, 2019-09, draft-07, $ref/$defs), in both modes
 * the server and client use; and where code generation is refused, the interpreter is chosen.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  canGenerateCode,
  defaultJsonSchemaValidator,
  loadAjvValidator,
  loadInterpretingValidator,
  type JsonSchemaCompileOptions,
  type JsonSchemaDialect,
  type JsonSchemaResult,
} from './json-schema-validator.js';

type Case = [name: string, schema: Record<string, unknown>, values: unknown[]];

const D7 = 'http://json-schema.org/draft-07/schema#';
const ADDRESS = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 }, zip: { type: 'string', pattern: '^[0-9]{4}$' } },
  required: ['city'],
};

const CASES: Case[] = [
  [
    '2020-12 object with $defs, $ref, required, additionalProperties: false',
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: ADDRESS },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      required: ['name'],
      additionalProperties: false,
    },
    [
      { name: 'Ada' },
      { name: 'Ada', address: { city: 'Oslo', zip: '0150' } },
      {},
      { name: 'Ada', age: 36 },
      { name: 7, age: 36, height: 1 },
      { name: 'Ada', address: { city: 7 } },
      { name: 'Ada', address: { city: '', zip: 'x' } },
      { name: 'Ada', address: {} },
      'not an object',
      null,
    ],
  ],
  [
    'draft-07 definitions, tuple items and additionalItems: false',
    {
      $schema: D7,
      type: 'object',
      definitions: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      },
      properties: { pair: { $ref: '#/definitions/pair' } },
      required: ['pair'],
    },
    [{ pair: ['a', 1] }, { pair: [1, 'a'] }, { pair: ['a', 1, 2, 3] }, { pair: 'x' }, {}],
  ],
  [
    '2020-12 prefixItems with items: false',
    { type: 'array', prefixItems: [{ type: 'integer' }], items: false, minItems: 1 },
    [[1], [1.5], [1, 2], [], ['a', 'b']],
  ],
  [
    'numbers: minimum, maximum, exclusive bounds, multipleOf',
    {
      type: 'object',
      properties: {
        a: { type: 'number', minimum: 0, maximum: 10 },
        b: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 5 },
        c: { type: 'number', multipleOf: 0.5 },
      },
    },
    [{ a: 5, b: 1, c: 1.5 }, { a: -1 }, { a: 11 }, { b: 0 }, { b: 5 }, { b: 2.5 }, { c: 0.3 }],
  ],
  [
    'strings, arrays and objects: lengths, counts, enum, const, uniqueItems',
    {
      type: 'object',
      properties: {
        s: { type: 'string', maxLength: 3 },
        e: { enum: ['x', 'y'] },
        k: { const: 'fixed' },
        l: { type: 'array', items: { type: 'number' }, maxItems: 2, uniqueItems: true },
        o: { type: 'object', minProperties: 1, maxProperties: 1 },
      },
    },
    [
      { s: 'abc', e: 'x', k: 'fixed', l: [1, 2], o: { a: 1 } },
      { s: 'abcd' },
      { e: 'z' },
      { k: 'other' },
      { l: [1, 2, 3] },
      { l: [1, 1] },
      { l: [1, 'a'] },
      { o: {} },
      { o: { a: 1, b: 2 } },
    ],
  ],
  [
    '2019-09 with $defs and a nested $ref chain',
    {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $defs: {
        id: { type: 'string', pattern: '^[a-z]+$' },
        ids: { type: 'array', items: { $ref: '#/$defs/id' } },
      },
      type: 'object',
      properties: { ids: { $ref: '#/$defs/ids' } },
    },
    [{ ids: ['a', 'b'] }, { ids: ['a', 'B'] }, { ids: [1] }],
  ],
  [
    'type lists, boolean subschemas, not',
    {
      type: 'object',
      properties: { v: { type: ['string', 'null'] }, never: false, n: { not: { type: 'string' } } },
    },
    [{ v: null }, { v: 'x' }, { v: 1 }, { never: 1 }, { n: 'x' }, { n: 1 }],
  ],
  [
    'formats (checked where the server checks them)',
    { type: 'object', properties: { when: { type: 'string', format: 'date' }, who: { format: 'email' } } },
    [{ when: '2026-11-27', who: 'a@b.example' }, { when: '27/11/2026' }, { who: 'nobody' }],
  ],
];

const MODES: [string, Omit<JsonSchemaCompileOptions, 'dialect'>][] = [
  ['server mode (all errors, formats)', { allErrors: true, formats: true }],
  ['client mode (first error, no formats)', { allErrors: false, formats: false }],
];

const dialectOf = (s: Record<string, unknown>): JsonSchemaDialect =>
  s.$schema === D7 ? 'draft-07' : String(s.$schema).includes('2019-09') ? '2019-09' : '2020-12';

/** Issues compared as a set: the validators walk keywords in different orders. */
const normal = (r: JsonSchemaResult) =>
  r.ok
    ? { ok: true }
    : {
        ok: false,
        issues: r.issues
          .map((i) => `${i.instancePath} [${i.keyword}] ${i.message} ${JSON.stringify(i.params ?? {})}`)
          .sort(),
      };

describe('JSON Schema validators: Ajv and the interpreter agree', () => {
  for (const [mode, options] of MODES) {
    for (const [name, schema, values] of CASES) {
      test(`${name}, ${mode}`, async () => {
        const ajv = await loadAjvValidator();
        const interpreter = await loadInterpretingValidator();
        const o = { ...options, dialect: dialectOf(schema) };
        const a = await ajv.compile(schema, o);
        const i = await interpreter.compile(schema, o);
        for (const value of values) {
          const expected = normal(a(value));
          // In first-error mode each stops at its first finding: the outcome and count agree.
          const actual = normal(i(value));
          if (options.allErrors) assert.deepEqual(actual, expected, JSON.stringify(value));
          else {
            assert.equal(actual.ok, expected.ok, JSON.stringify(value));
            assert.equal(actual.issues?.length, expected.issues?.length, JSON.stringify(value));
          }
        }
      });
    }
  }

  test('the interpreter leaves the schema it is given untouched', async () => {
    const schema = {
      type: 'object',
      $defs: { a: { type: 'string' } },
      properties: { x: { $ref: '#/$defs/a' } },
    };
    const before = JSON.stringify(schema);
    const check = await (
      await loadInterpretingValidator()
    ).compile(schema, {
      dialect: '2020-12',
      allErrors: true,
      formats: true,
    });
    assert.equal(check({ x: 1 }).ok, false);
    assert.equal(JSON.stringify(schema), before);
    assert.deepEqual(Object.getOwnPropertyNames(schema.properties.x), ['$ref']);
  });

  test('an unresolvable $ref makes the schema unusable in both, with the same message', async () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } };
    const o = { dialect: '2020-12', allErrors: true, formats: true } as const;
    const reasons: string[] = [];
    for (const v of [await loadAjvValidator(), await loadInterpretingValidator()]) {
      await assert.rejects(
        async () => v.compile(schema, o),
        (e: Error) => (reasons.push(e.message), true),
      );
    }
    assert.equal(reasons[1], reasons[0]);
  });
});

describe('JSON Schema validators: the default', () => {
  test('is Ajv where code generation from strings works (Node)', async () => {
    assert.equal(canGenerateCode(), true);
    assert.equal((await defaultJsonSchemaValidator()).name, 'ajv');
  });

  test('is the interpreter where code generation is refused, and a raw-schema tool still works', async () => {
    // A real Node with code generation switched off, as Workers have it.
    const server = fileURLToPath(new URL('../server/server.js', import.meta.url));
    const seam = fileURLToPath(new URL('./json-schema-validator.js', import.meta.url));
    const client = fileURLToPath(new URL('../client/client.js', import.meta.url));
    const memory = fileURLToPath(new URL('../transports/memory/index.js', import.meta.url));
    const script = `
      const { canGenerateCode, defaultJsonSchemaValidator } = await import(${JSON.stringify(seam)});
      const { McpServer } = await import(${JSON.stringify(server)});
      const { Client } = await import(${JSON.stringify(client)});
      const { memoryPair } = await import(${JSON.stringify(memory)});
      const s = new McpServer({ name: 's', version: '1' });
      const input = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] };
      const output = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] };
      s.tool({ name: 'sum', input, output }, ({ a, b }) => ({ content: [], structuredContent: { sum: a + b } }));
      const c = new Client({ name: 'c', version: '1' }, { era: 'modern' });
      const [x, y] = memoryPair();
      await s.connect(y);
      await c.connect(x);
      await c.listTools();
      const good = await c.callTool({ name: 'sum', arguments: { a: 1, b: 2 } });
      const bad = await c.callTool({ name: 'sum', arguments: { a: 1 } });
      console.log(JSON.stringify({
        codegen: canGenerateCode(),
        validator: (await defaultJsonSchemaValidator()).name,
        good: good.structuredContent,
        bad: [bad.isError, bad.content[0].text],
      }));
      await c.close();
      await s.close();
    `;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script],
        { timeout: 20_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    assert.deepEqual(JSON.parse(out), {
      codegen: false,
      validator: '@cfworker/json-schema',
      good: { sum: 3 },
      bad: [true, "Invalid arguments for tool sum: (root) must have required property 'b'"],
    });
  });
});
