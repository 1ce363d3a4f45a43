/**
 * End to end over a real socket: our `Client` on `StreamableHttpClientTransport` against
 * `serve(createEverythingServer())`, in the legacy, modern and auto eras. Every message
 * either side sends is checked against the official schema of the revision in use.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../client/client.js';
import type { EraPreference } from '../../client/index.js';
import type { ChangeEvent } from '../../client/types.js';
import type { Progress } from '../../session/index.js';
import { WireTap, formAnswer } from '../../test-support/mcp-harness.js';
import { bindings } from '../../test-support/http-client-bindings.js';
import type { StreamableHttpClientTransport as HttpTransport } from '../http-client/index.js';
import { LEGACY, MODERN, startEverything } from '../../test-support/http-server-harness.js';
import type { Fixture, Obj } from '../../test-support/http-server-harness.js';
import { WAIT_MS, delay } from '../../test-support/waiting.js';

for (const { name: binding, StreamableHttpClientTransport } of bindings) {
  describe(`on ${binding}`, () => {
    const WATCHED = 'test://watched-resource';
    const logs: string[] = [];

    let f: Fixture;
    before(async () => {
      f = await startEverything({}, 10);
    });
    after(() => f.close());

    interface Connected {
      client: Client;
      tap: WireTap;
      transport: HttpTransport;
      asked: Array<{ method: string; params: Obj }>;
    }

    async function connect(era: EraPreference): Promise<Connected> {
      const asked: Connected['asked'] = [];
      const client = new Client(
        { name: 'http-e2e', version: '1.0.0' },
        {
          era,
          timeoutMs: 10_000,
          // Collected, and checked by the last test: a clean run logs no warnings.
          logger: (level, message) => logs.push(`${level}: ${message}`),
          handlers: {
            sampling: (params) => {
              asked.push({ method: 'sampling/createMessage', params: params as Obj });
              return {
                role: 'assistant',
                content: { type: 'text', text: 'Echo' },
                model: 'test',
                stopReason: 'endTurn',
              };
            },
            elicitation: (params) => {
              asked.push({ method: 'elicitation/create', params: params as Obj });
              return { action: 'accept', content: formAnswer((params as Obj).requestedSchema) as never };
            },
            roots: [{ uri: 'file:///work', name: 'work' }],
          },
        },
      );
      const transport = new StreamableHttpClientTransport({ url: f.url });
      const tap = new WireTap(transport, era === 'legacy' ? LEGACY : MODERN);
      await client.connect(tap);
      return { client, tap, transport, asked };
    }

    const textOf = (r: Obj): string => String(((r.content as Obj[])[0] ?? {}).text);

    /** The next change a subscription reports, while `poke` keeps causing changes. */
    async function nextChange(
      it: AsyncIterator<ChangeEvent>,
      poke: () => void | Promise<unknown>,
      timeoutMs = WAIT_MS,
    ): Promise<ChangeEvent> {
      const next = it.next();
      const deadline = Date.now() + timeoutMs;
      let settled: IteratorResult<ChangeEvent> | undefined;
      void next.then((r) => (settled = r));
      // Legacy change notifications ride the GET stream, which opens shortly after connecting.
      while (!settled) {
        if (Date.now() > deadline) throw new Error('no change event');
        await poke();
        // Not a fixed sleep: the pace of the pokes, in a loop that ends on the change event.
        await delay(50);
      }
      assert.equal(settled.done, false);
      return settled.value as ChangeEvent;
    }

    for (const era of ['legacy', 'modern', 'auto'] as const) {
      const expected =
        era === 'legacy' ? { era: 'legacy', version: LEGACY } : { era: 'modern', version: MODERN };

      describe(`our Client over Streamable HTTP, era ${era}`, () => {
        let c: Connected;
        before(async () => {
          c = await connect(era);
        });
        after(async () => {
          await c.client.close();
          c.tap.assertValid();
        });

        test('connects in the expected era; list, call, read, get, complete, ping', async () => {
          assert.equal(c.client.era, expected.era);
          assert.equal(c.client.protocolVersion, expected.version);
          assert.equal(
            c.transport.sessionId === undefined,
            expected.era === 'modern',
            'sessions only in legacy',
          );
          const tools = await c.client.listTools();
          assert.ok(tools.tools.some((t) => t.name === 'test_simple_text'));
          const add = await c.client.callTool({ name: 'add', arguments: { a: 40, b: 2 } });
          assert.deepEqual(add.structuredContent, { sum: 42 });
          const read = await c.client.readResource({ uri: 'test://template/123/data' });
          assert.match(JSON.stringify(read.contents[0]), /123/);
          const prompt = await c.client.getPrompt({
            name: 'test_prompt_with_arguments',
            arguments: { arg1: 'alpha', arg2: 'beta' },
          });
          assert.match(JSON.stringify(prompt.messages), /alpha[\s\S]*beta|beta[\s\S]*alpha/);
          const done = await c.client.complete({
            ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
            argument: { name: 'arg1', value: '' },
          });
          assert.ok(Array.isArray(done.completion.values));
          if (expected.era === 'legacy') await c.client.ping();
          else assert.ok((await c.client.discover()).supportedVersions.includes(MODERN));
          const err = await c.client.callTool({ name: 'test_error_handling', arguments: {} });
          assert.equal(err.isError, true);
        });

        test('progress notifications reach onprogress, in order', async () => {
          const seen: Progress[] = [];
          const r = await c.client.callTool(
            { name: 'test_tool_with_progress', arguments: {} },
            { onprogress: (p) => seen.push(p) },
          );
          assert.equal(textOf(r as Obj), 'Tool with progress executed successfully');
          assert.deepEqual(
            seen.map((p) => p.progress),
            [0, 50, 100],
          );
        });

        test(`elicitation and sampling (${expected.era === 'modern' ? 'MRTR input requests' : 'server-to-client requests'})`, async () => {
          c.asked.length = 0;
          const e = await c.client.callTool({
            name: 'test_elicitation',
            arguments: { message: 'Who are you?' },
          });
          assert.match(textOf(e as Obj), /action=accept/);
          assert.match(textOf(e as Obj), /username-value/);
          const s = await c.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Hello model' } });
          assert.equal(textOf(s as Obj), 'LLM response: Echo');
          assert.deepEqual(
            c.asked.map((a) => a.method),
            ['elicitation/create', 'sampling/createMessage'],
          );
          const fromServer = c.tap.requestsFrom('server');
          const inputRequired = c.tap.entries.filter(
            (x) =>
              x.from === 'server' && (x.message.result as Obj | undefined)?.resultType === 'input_required',
          );
          if (expected.era === 'modern') {
            assert.deepEqual(fromServer, [], 'no server-to-client requests in the modern era');
            assert.equal(inputRequired.length, 2);
          } else {
            assert.deepEqual(
              fromServer.map((m) => m.method),
              ['elicitation/create', 'sampling/createMessage'],
            );
            assert.equal(inputRequired.length, 0);
          }
        });

        test('subscriptions: a tool list change and a watched resource', async () => {
          const sub = await c.client.subscribe({ toolsListChanged: true, resources: [WATCHED] });
          const it = sub[Symbol.asyncIterator]();
          try {
            const tools = await nextChange(it, () =>
              f.server.tool({ name: `poke_${era}` }, () => 'x').remove(),
            );
            assert.equal(tools.kind, 'tools');
            let resource = await nextChange(it, () => f.server.resourceUpdated(WATCHED));
            while (resource.kind !== 'resource')
              resource = await nextChange(it, () => f.server.resourceUpdated(WATCHED));
            assert.equal(resource.kind === 'resource' && resource.uri, WATCHED);
          } finally {
            await sub.close();
          }
        });
      });
    }

    describe('sessions end cleanly', () => {
      test('closing a legacy client sends DELETE and the server forgets the session', async () => {
        const before = f.running.handler.sessionCount;
        const c = await connect('legacy');
        assert.equal(f.running.handler.sessionCount, before + 1);
        await c.client.close();
        assert.equal(f.running.handler.sessionCount, before);
        c.tap.assertValid();
      });

      test('a modern client leaves no session behind', async () => {
        const before = f.running.handler.sessionCount;
        const c = await connect('modern');
        await c.client.callTool({ name: 'test_simple_text', arguments: {} });
        assert.equal(f.running.handler.sessionCount, before);
        await c.client.close();
        c.tap.assertValid();
      });
    });

    test('the clients logged no warnings or errors', () => {
      assert.deepEqual(
        logs.filter((l) => !l.startsWith('debug') && !l.startsWith('info')),
        [],
      );
    });
  });
}
