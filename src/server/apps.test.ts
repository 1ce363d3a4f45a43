/**
 * App registration through our Client over the memory transport, in both eras: the tool's
 * `_meta.ui`, the `ui://` resource and its content-item `_meta`, HTML from a loader, and the
 * app-only tool, with the metadata checked against the official ext-apps schema.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../client/client.js';
import { APP_MIME_TYPE, appResourceUri, isAppCallable, isModelVisible } from '../protocol/apps.js';
import { assertAppsSchema } from '../test-support/apps-schema.js';
import { memoryPair } from '../transports/memory/index.js';
import { registerApp, registerAppTool } from './index.js';
import { McpServer } from './server.js';

async function pair(server: McpServer, era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client({ name: 'c', version: '1' }, { era, logger: () => undefined });
  const [a, b] = memoryPair();
  await server.connect(b);
  await client.connect(a);
  return client;
}

type Obj = Record<string, unknown>;

for (const era of ['legacy', 'modern'] as const) {
  describe(`registerApp, ${era} era`, () => {
    test('lists the tool with _meta.ui and serves the view with its metadata', async () => {
      const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
      let loads = 0;
      registerApp(
        server,
        {
          name: 'weather',
          description: 'Weather with a view',
          resourceUri: 'ui://weather/view.html',
          html: async () => `<!doctype html><p>view ${++loads}</p>`,
          csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
          permissions: { clipboardWrite: {} },
          domain: 'weather.example-host.test',
          prefersBorder: false,
        },
        () => ({ content: [{ type: 'text', text: 'sunny' }], structuredContent: { sky: 'sunny' } }),
      );
      registerAppTool(
        server,
        {
          name: 'weather_refresh',
          resourceUri: 'ui://weather/view.html',
          visibility: ['app'],
        },
        () => 'refreshed',
      );
      const client = await pair(server, era);
      const { tools } = await client.listTools();
      const weather = tools.find((t) => t.name === 'weather')!;
      const refresh = tools.find((t) => t.name === 'weather_refresh')!;
      const wmeta = weather._meta as Obj;
      assert.deepEqual(wmeta.ui, { resourceUri: 'ui://weather/view.html' });
      assert.equal(wmeta['ui/resourceUri'], 'ui://weather/view.html');
      assertAppsSchema('McpUiToolMeta', wmeta.ui);
      assertAppsSchema('McpUiToolMeta', (refresh._meta as Obj).ui);
      assert.equal(appResourceUri(weather), 'ui://weather/view.html');
      assert.ok(isModelVisible(weather) && isAppCallable(weather));
      assert.ok(!isModelVisible(refresh) && isAppCallable(refresh));

      const { resources } = await client.listResources();
      const listed = resources.find((r) => r.uri === 'ui://weather/view.html')!;
      assert.equal(listed.mimeType, APP_MIME_TYPE);
      assertAppsSchema('McpUiResourceMeta', (listed._meta as Obj).ui);

      const first = await client.readResource({ uri: 'ui://weather/view.html' });
      const second = await client.readResource({ uri: 'ui://weather/view.html' });
      const item = first.contents[0] as unknown as Obj;
      assert.equal(item.mimeType, APP_MIME_TYPE);
      assert.equal(item.text, '<!doctype html><p>view 1</p>');
      assert.equal(
        (second.contents[0] as unknown as Obj).text,
        '<!doctype html><p>view 2</p>',
        'the loader runs per read',
      );
      const ui = (item._meta as Obj).ui as Obj;
      assertAppsSchema('McpUiResourceMeta', ui);
      assert.deepEqual(ui, {
        csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
        permissions: { clipboardWrite: {} },
        domain: 'weather.example-host.test',
        prefersBorder: false,
      });

      const r = await client.callTool({ name: 'weather_refresh', arguments: {} });
      assert.deepEqual(r.content, [{ type: 'text', text: 'refreshed' }]);
      await client.close();
      await server.close();
    });

    test('removing the registration removes the tool and the view', async () => {
      const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
      const reg = registerApp(
        server,
        { name: 'a', resourceUri: 'ui://a/v.html', html: '<!doctype html>' },
        () => 'ok',
      );
      server.tool({ name: 'other' }, () => 'ok');
      server.resource({ uri: 'mem://other', name: 'other' }, (uri) => [{ uri, text: '' }]);
      reg.remove();
      const client = await pair(server, era);
      assert.deepEqual(
        (await client.listTools()).tools.map((t) => t.name),
        ['other'],
      );
      assert.deepEqual(
        (await client.listResources()).resources.map((r) => r.uri),
        ['mem://other'],
      );
      await client.close();
      await server.close();
    });
  });
}

describe('registerApp input checks', () => {
  test('refuses a view URI outside ui://, a bad visibility and missing HTML', () => {
    const server = new McpServer({ name: 's', version: '1' }, { logger: () => undefined });
    assert.throws(
      () => registerApp(server, { name: 'a', resourceUri: 'https://x/v.html', html: '' }, () => 'ok'),
      /ui:\/\//,
    );
    assert.throws(
      () => registerAppTool(server, { name: 'b', visibility: ['robot' as 'app'] }, () => 'ok'),
      /visibility/,
    );
    assert.throws(
      () =>
        registerApp(server, { name: 'c', resourceUri: 'ui://c', html: 42 as unknown as string }, () => 'ok'),
      /html/,
    );
  });
});
