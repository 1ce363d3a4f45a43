/**
 * Tool schemas, end to end through our Client over the memory transport, in both eras:
 * Standard Schema (zod 4; valibot wrapped with toStandardJsonSchema, or bare with its JSON
 * Schema given alongside) and raw JSON Schema (listed verbatim, validated in its own
 * dialect, remote $refs never fetched). Schemas are converted and compiled once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { Client } from '../client/client.js';
import { WireError } from '../jsonrpc/index.js';
import type { CallToolResult, Tool } from '../protocol/types/index.js';
import { memoryPair } from '../transports/memory/index.js';
import { loadAjvValidator, loadInterpretingValidator } from '../protocol/json-schema-validator.js';
import type { JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import { McpServer } from './server.js';
import type { StandardSchemaLike } from './index.js';
import type { RawJsonSchema } from './schema-adapter.js';

const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/** A Standard Schema whose JSON Schema conversions are counted. */
function counted<S extends StandardSchemaLike>(schema: S): { schema: S; calls: () => number } {
  const std = schema['~standard'];
  let calls = 0;
  const jsonSchema = {
    input: (o: { target: string }) => (calls++, std.jsonSchema!.input(o)),
    output: (o: { target: string }) => (calls++, std.jsonSchema!.output(o)),
  };
  const wrapped = { '~standard': { ...std, validate: (x: unknown) => std.validate(x), jsonSchema } };
  return { schema: wrapped as unknown as S, calls: () => calls };
}

const trip = z
  .object({
    where: z.object({ city: z.string().min(1), country: z.string().length(2).optional() }),
    units: z.enum(['metric', 'imperial']).default('metric'),
    days: z.number().int().min(1),
    nights: z.number().int().min(0),
  })
  .refine((t) => t.nights <= t.days, { message: 'nights cannot exceed days', path: ['nights'] });

const vStation = v.object({
  id: v.pipe(v.string(), v.regex(/^[A-Z]{4}$/)),
  elevation: v.optional(v.number()),
});
const STATION_JSON: RawJsonSchema = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[A-Z]{4}$' }, elevation: { type: 'number' } },
  required: ['id'],
};

const RAW_2020: RawJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
  required: ['name'],
  additionalProperties: false,
};
const RAW_07: RawJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  definitions: {
    pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
  },
  properties: { pair: { $ref: '#/definitions/pair' } },
  required: ['pair'],
};

/** The validators every raw-JSON-Schema test runs with: Ajv, and the interpreter Workers get. */
const VALIDATORS = [
  ['ajv', loadAjvValidator],
  ['@cfworker/json-schema', loadInterpretingValidator],
] as const;

/** Counts compiles of the given schema objects through the validator seam. */
const compiled = new Map<object, number>();
const counting = (load: () => Promise<JsonSchemaValidator>): JsonSchemaValidator => ({
  name: 'counting',
  async compile(s, options) {
    if (compiled.has(s)) compiled.set(s, compiled.get(s)! + 1);
    return (await load()).compile(s, options);
  },
});

interface Built {
  server: McpServer;
  /** tools/list requests served. */
  lists: () => number;
  /** Conversions of the zod schema of `plan` to JSON Schema. */
  conversions: () => number;
  /** Compiles of this server's two raw schemas. */
  compiles: () => [number | undefined, number | undefined];
}

function buildServer(load: () => Promise<JsonSchemaValidator>): Built {
  const server = new McpServer(
    { name: 'schemas', version: '1.0.0' },
    { jsonSchemaValidator: counting(load) },
  );
  const zodTrip = counted(trip);
  // Copies, so that compiles are counted per server.
  const raw2020 = structuredClone(RAW_2020);
  const raw07 = structuredClone(RAW_07);
  compiled.set(raw2020, 0).set(raw07, 0);
  let lists = 0;
  server.use(({ method }, next) => {
    if (method === 'tools/list') lists++;
    return next();
  });
  server.tool({ name: 'plan', input: zodTrip.schema }, (t) => {
    // Typed from the zod output: defaults applied, refinement passed, unknown keys stripped.
    const units: 'metric' | 'imperial' = t.units;
    return JSON.stringify({ ...t, units });
  });
  server.tool(
    {
      name: 'forecast',
      input: z.object({ city: z.string() }),
      output: z.object({ city: z.string(), celsius: z.number() }),
    },
    ({ city }) => {
      // A bug for one city: the structured result does not match the output schema.
      const structuredContent = city === 'Bug' ? { city, celsius: 'warm' } : { city, celsius: 21 };
      return { content: [{ type: 'text', text: `${city}: 21°C` }], structuredContent };
    },
  );
  server.tool({ name: 'station', input: toStandardJsonSchema(vStation) }, (s) => `station ${s.id}`);
  server.tool({ name: 'bare_station', input: vStation, inputJsonSchema: STATION_JSON }, (s) => s.id);
  server.tool({ name: 'raw_2020', input: raw2020 }, (args) => JSON.stringify(args));
  server.tool({ name: 'raw_07', input: raw07 }, (args) => JSON.stringify(args));
  return {
    server,
    lists: () => lists,
    conversions: zodTrip.calls,
    compiles: () => [compiled.get(raw2020), compiled.get(raw07)],
  };
}

describe('schemas: registration errors', () => {
  test('a bare valibot schema without its JSON Schema is a clear TypeError', () => {
    const server = new McpServer({ name: 's', version: '1' });
    assert.throws(() => server.tool({ name: 'bare', input: vStation }, () => 'x'), {
      name: 'TypeError',
      message:
        'Tool bare: A valibot schema cannot describe itself as JSON Schema: give its JSON Schema alongside ' +
        'it (inputJsonSchema on a tool), or wrap it with toStandardJsonSchema() from @valibot/to-json-schema',
    });
  });

  test('an unsupported $schema dialect is refused at registration', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const input = { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' };
    assert.throws(() => server.tool({ name: 'old', input }, () => 'x'), {
      name: 'TypeError',
      message:
        /^Tool old: JSON Schema dialect "http:\/\/json-schema.org\/draft-03\/schema#" is not supported/,
    });
  });
});

describe('schemas: an object schema is checked at registration, converted when first listed', () => {
  test('an input schema that is no object is refused at registration (zod and raw JSON Schema alike)', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const message = 'Tool word: the input schema must describe an object (type: "object")';
    for (const input of [z.string(), z.array(z.object({ a: z.string() })), { type: 'string' }]) {
      assert.throws(() => server.tool({ name: 'word', input }, () => 'x'), { name: 'TypeError', message });
    }
  });

  test('a zod object is converted on the first list that shows it, once, and validated before that', async () => {
    const inner = counted(trip);
    // counted() keeps the zod object's structure, so registration can see it is an object.
    const schema = Object.assign(inner.schema, { _zod: (trip as unknown as { _zod: unknown })._zod });
    const server = new McpServer({ name: 's', version: '1' });
    server.tool({ name: 'plan', input: schema }, (t) => t.where.city);
    assert.equal(inner.calls(), 0, 'not converted at registration');
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = memoryPair();
    await server.connect(b);
    await client.connect(a);
    try {
      const r = await client.callTool({
        name: 'plan',
        arguments: { where: { city: 'Oslo' }, days: 1, nights: 1 },
      });
      assert.equal(textOf(r), 'Oslo');
      assert.equal(inner.calls(), 0, 'a call validates with zod, converting nothing');
      for (let i = 0; i < 3; i++) {
        client.clearCache();
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools[0]!.inputSchema,
          trip['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
        );
      }
      assert.equal(inner.calls(), 1, 'converted once, on the first list');
      assert.deepEqual(
        server.toolInputSchemas.get('plan'),
        trip['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
      );
    } finally {
      await client.close();
      await server.close();
    }
  });

  test('a zod object that cannot be JSON Schema fails the list with -32603 naming the tool; calls still work', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.tool({ name: 'remind', input: z.object({ at: z.date() }) }, ({ at }) => at.toISOString());
    server.tool({ name: 'ping', input: z.object({}) }, () => 'pong');
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = memoryPair();
    await server.connect(b);
    await client.connect(a);
    try {
      await assert.rejects(client.listTools(), (e: unknown) => {
        assert.ok(e instanceof WireError);
        assert.equal(e.code, -32603);
        assert.match(
          e.message,
          /^Tool remind: its schema cannot be listed as JSON Schema: Date cannot be represented/,
        );
        return true;
      });
      assert.equal(textOf(await client.callTool({ name: 'ping', arguments: {} })), 'pong');
      const r = await client.callTool({ name: 'remind', arguments: { at: 'noon' } });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /^Invalid arguments for tool remind: at: /);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

for (const [validator, load] of VALIDATORS) {
  for (const era of ['legacy', 'modern'] as const) {
    describe(`schemas over the memory transport, ${era} era, ${validator}`, () => {
      let built: Built;
      let server: McpServer;
      let client: Client;
      let tools: Map<string, Tool>;
      const call = (name: string, args: Record<string, unknown>) =>
        client.callTool({ name, arguments: args });
      const invalid = async (name: string, args: Record<string, unknown>, message: RegExp) => {
        const r = await call(name, args);
        assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} is refused`);
        assert.match(textOf(r), message);
      };

      before(async () => {
        built = buildServer(load);
        server = built.server;
        client = new Client({ name: 'c', version: '1' }, { era });
        const [a, b] = memoryPair();
        await server.connect(b);
        await client.connect(a);
        tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
      });
      after(async () => {
        await client.close();
        await server.close();
      });

      test('zod 4: converted to JSON Schema 2020-12 (nested, enum, optional, default)', () => {
        assert.deepEqual(
          tools.get('plan')!.inputSchema,
          trip['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
        );
        const s = tools.get('plan')!.inputSchema as RawJsonSchema & {
          properties: Record<string, RawJsonSchema>;
        };
        assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema');
        assert.deepEqual(s.required, ['where', 'days', 'nights']);
        assert.deepEqual(s.properties.units, {
          type: 'string',
          enum: ['metric', 'imperial'],
          default: 'metric',
        });
        assert.deepEqual((s.properties.where as { required: string[] }).required, ['city']);
      });

      test('zod 4: a valid call reaches the handler parsed (default applied, unknown keys stripped)', async () => {
        const r = await call('plan', { where: { city: 'Oslo' }, days: 3, nights: 2, extra: true });
        assert.deepEqual(JSON.parse(textOf(r)), {
          where: { city: 'Oslo' },
          units: 'metric',
          days: 3,
          nights: 2,
        });
      });

      test('zod 4: invalid input is an isError result naming the field', async () => {
        await invalid(
          'plan',
          { where: {}, days: 3, nights: 1 },
          /^Invalid arguments for tool plan: where\.city: /,
        );
        await invalid(
          'plan',
          { where: { city: 'Oslo', country: 'NOR' }, days: 3, nights: 1 },
          /where\.country: /,
        );
        await invalid('plan', { where: { city: 'Oslo' }, units: 'kelvin', days: 3, nights: 1 }, /units: /);
        await invalid('plan', { where: { city: 'Oslo' }, days: 1.5, nights: 1 }, /days: .*expected int/);
        await invalid(
          'plan',
          { where: { city: 'Oslo' }, days: 1, nights: 2 },
          /nights: nights cannot exceed days/,
        );
      });

      test('zod 4 outputSchema: matching structuredContent passes, a mismatch is an error', async () => {
        assert.deepEqual(tools.get('forecast')!.outputSchema, {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { city: { type: 'string' }, celsius: { type: 'number' } },
          required: ['city', 'celsius'],
          additionalProperties: false,
        });
        assert.deepEqual((await call('forecast', { city: 'Oslo' })).structuredContent, {
          city: 'Oslo',
          celsius: 21,
        });
        await assert.rejects(
          call('forecast', { city: 'Bug' }),
          (e: unknown) =>
            e instanceof WireError &&
            e.code === -32603 &&
            /does not match its outputSchema: celsius: /.test(e.message),
        );
      });

      test('valibot wrapped with toStandardJsonSchema: listed and validated', async () => {
        assert.deepEqual(tools.get('station')!.inputSchema, {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          ...STATION_JSON,
        });
        assert.equal(textOf(await call('station', { id: 'ENGM' })), 'station ENGM');
        await invalid('station', { id: 'oslo' }, /^Invalid arguments for tool station: id: Invalid format/);
        await invalid('station', { id: 'ENGM', elevation: 'high' }, /elevation: Invalid type/);
      });

      test('bare valibot with inputJsonSchema: that schema is listed, valibot validates', async () => {
        assert.deepEqual(tools.get('bare_station')!.inputSchema, STATION_JSON);
        assert.equal(textOf(await call('bare_station', { id: 'ENBR' })), 'ENBR');
        await invalid('bare_station', {}, /^Invalid arguments for tool bare_station: id: Invalid (key|type)/);
      });

      test('raw JSON Schema 2020-12: listed verbatim ($schema, $defs, additionalProperties) and validated', async () => {
        assert.deepEqual(tools.get('raw_2020')!.inputSchema, RAW_2020);
        const ok = { name: 'Ada', address: { city: 'London' } };
        assert.equal(textOf(await call('raw_2020', ok)), JSON.stringify(ok));
        await invalid('raw_2020', { name: 'Ada', age: 36 }, /must NOT have additional properties "age"/);
        await invalid('raw_2020', { name: 'Ada', address: { city: 7 } }, /\/address\/city must be string/);
        await invalid('raw_2020', {}, /must have required property 'name'/);
      });

      test('raw JSON Schema draft-07: listed verbatim, validated with draft-07 semantics', async () => {
        assert.deepEqual(tools.get('raw_07')!.inputSchema, RAW_07);
        assert.equal(textOf(await call('raw_07', { pair: ['a', 1] })), '{"pair":["a",1]}');
        // Tuple `items` is draft-07 only; 2020-12 would call it prefixItems.
        await invalid('raw_07', { pair: [1, 'a'] }, /\/pair\/0 must be string/);
        await invalid('raw_07', { pair: ['a', 1, 2] }, /\/pair must NOT have more than 2 items/);
      });

      test('schemas are converted and compiled once, however often tools are listed', async () => {
        const conversions = built.conversions();
        const ajvCompiles = built.compiles();
        const before = built.lists();
        for (let i = 0; i < 100; i++) {
          client.clearCache();
          await client.listTools();
          await call('raw_2020', { name: 'x' });
        }
        assert.equal(built.lists() - before, 100, 'every listing reached the server');
        assert.equal(conversions, 1, 'zod converted once, at registration');
        assert.equal(built.conversions(), 1);
        assert.deepEqual(ajvCompiles, [1, 1], 'each raw schema compiled on first use');
        assert.deepEqual(built.compiles(), [1, 1]);
      });
    });
  }
}

for (const [validator, load] of [['default', undefined], ...VALIDATORS] as const) {
  describe(`schemas: a $ref to an http URL, ${validator} validator`, () => {
    test('is never fetched, and the call fails with the reason', async () => {
      let hits = 0;
      const http = createServer((_req, res) => {
        hits++;
        res.end('{"type":"string"}');
      });
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/city.json`;
      const realFetch = globalThis.fetch;
      let fetches = 0;
      globalThis.fetch = (...args: Parameters<typeof fetch>) => (fetches++, realFetch(...args));
      try {
        const jsonSchemaValidator = load ? await load() : undefined;
        const server = new McpServer({ name: 's', version: '1' }, { jsonSchemaValidator });
        server.tool(
          { name: 'remote', input: { type: 'object', properties: { city: { $ref: url } } } },
          () => 'x',
        );
        const client = new Client({ name: 'c', version: '1' }, { era: 'modern' });
        const [a, b] = memoryPair();
        await server.connect(b);
        await client.connect(a);
        const r = await client.callTool({ name: 'remote', arguments: { city: 'Oslo' } });
        assert.equal(r.isError, true);
        assert.equal(
          textOf(r),
          `Invalid arguments for tool remote: the schema itself is unusable, whatever the arguments: ` +
            `can't resolve reference ${url} from id # (remote $refs are never fetched)`,
        );
        await client.close();
        await server.close();
        assert.equal(hits, 0, 'no request reached the URL');
        assert.equal(fetches, 0);
      } finally {
        globalThis.fetch = realFetch;
        http.close();
      }
    });
  });
}
