/** The view's CSP, permissions and discovery helpers, and the proxy page's shape. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { approvedCsp, buildAppCsp, cspSources, grantPermissions, permissionsAllow } from './csp.js';
import { isAppMimeType, loadAppResource, mergeAppMeta } from './app-resource.js';
import { sandboxProxyHtml, withCspMeta } from './sandbox-proxy.js';

function directives(policy: string): Record<string, string> {
  return Object.fromEntries(
    policy.split('; ').map((d) => {
      const [name, ...rest] = d.split(' ');
      return [name!, rest.join(' ')];
    }),
  );
}

describe('buildAppCsp', () => {
  test('with nothing declared it denies every network origin', () => {
    const d = directives(buildAppCsp(undefined));
    assert.equal(d['default-src'], "'none'");
    assert.equal(d['connect-src'], "'none'");
    assert.equal(d['frame-src'], "'none'");
    assert.equal(d['object-src'], "'none'");
    assert.equal(d['base-uri'], "'self'");
    assert.equal(d['script-src'], "'self' 'unsafe-inline'");
    assert.equal(d['img-src'], "'self' data: blob:");
  });

  test('declared origins go to their own directives and nowhere else', () => {
    const d = directives(
      buildAppCsp({
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.cdn.example.com/'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://base.example.com'],
      }),
    );
    assert.equal(d['connect-src'], 'https://api.example.com wss://live.example.com');
    assert.equal(d['script-src'], "'self' 'unsafe-inline' https://*.cdn.example.com");
    assert.equal(d['font-src'], "'self' data: https://*.cdn.example.com");
    assert.equal(d['frame-src'], 'https://www.youtube.com');
    assert.equal(d['base-uri'], 'https://base.example.com');
    assert.ok(!d['connect-src']!.includes('cdn'), 'resource domains do not open connect-src');
  });

  test('keywords, bare schemes, wildcards and injection attempts are dropped', () => {
    const hostile = [
      "'unsafe-eval'",
      '*',
      'https:',
      'data:',
      'https://a.example.com; script-src *',
      'https://b.example.com/path',
      'javascript:alert(1)',
      'https://ok.example.com',
      'http://[::1]:8080',
      42,
    ];
    assert.deepEqual(cspSources(hostile), ['https://ok.example.com', 'http://[::1]:8080']);
    const policy = buildAppCsp({ connectDomains: hostile as string[] });
    assert.equal(directives(policy)['connect-src'], 'https://ok.example.com http://[::1]:8080');
    assert.ok(!policy.includes('unsafe-eval'));
    assert.equal(policy.split(';').length, 11, 'no directive was injected');
    assert.deepEqual(approvedCsp({ connectDomains: hostile as string[], frameDomains: ['*'] }), {
      connectDomains: ['https://ok.example.com', 'http://[::1]:8080'],
    });
  });
});

describe('permissions', () => {
  test('map to the allow attribute, only for what was both asked and granted', () => {
    assert.equal(permissionsAllow(undefined), '');
    assert.equal(
      permissionsAllow({ camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} }),
      'camera; microphone; geolocation; clipboard-write',
    );
    assert.deepEqual(grantPermissions({ camera: {}, microphone: {} }, undefined), {});
    assert.deepEqual(grantPermissions({ camera: {}, microphone: {} }, { microphone: {}, geolocation: {} }), {
      microphone: {},
    });
    assert.equal(permissionsAllow({ usb: {} } as never), '', 'unknown features are never delegated');
  });
});

describe('discovery', () => {
  test("the content item's _meta.ui wins over the listing's, field by field", () => {
    assert.deepEqual(
      mergeAppMeta(
        { ui: { csp: { connectDomains: ['https://old.example.com'] }, prefersBorder: true, domain: 'a' } },
        { ui: { csp: { connectDomains: ['https://new.example.com'] }, domain: 'b' } },
      ),
      { csp: { connectDomains: ['https://new.example.com'] }, prefersBorder: true, domain: 'b' },
    );
    assert.deepEqual(mergeAppMeta(undefined, undefined), {});
  });

  test('loadAppResource reads text or blob of the app MIME type and refuses anything else', async () => {
    const html = '<!doctype html><p>é</p>';
    const server = (contents: unknown[]) => ({ readResource: async () => ({ contents }) });
    const fromText = await loadAppResource(
      server([
        { uri: 'ui://a', mimeType: 'text/plain', text: 'no' },
        {
          uri: 'ui://a',
          mimeType: 'text/html; profile=mcp-app',
          text: html,
          _meta: { ui: { prefersBorder: false } },
        },
      ]),
      'ui://a',
      { listing: { _meta: { ui: { prefersBorder: true, domain: 'd' } } } },
    );
    assert.deepEqual(fromText, { uri: 'ui://a', html, meta: { prefersBorder: false, domain: 'd' } });
    const blob = Buffer.from(html, 'utf8').toString('base64');
    const fromBlob = await loadAppResource(
      server([{ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app', blob }]),
      'ui://a',
    );
    assert.equal(fromBlob.html, html);
    await assert.rejects(
      loadAppResource(server([{ uri: 'ui://a', mimeType: 'text/html', text: html }]), 'ui://a'),
      /no content of type/,
    );
    await assert.rejects(loadAppResource(server([]), 'https://x/'), /ui:\/\//);
    assert.ok(isAppMimeType('TEXT/HTML;PROFILE=MCP-APP'));
    assert.ok(!isAppMimeType('text/html'));
  });
});

describe('the sandbox proxy page', () => {
  test('puts the CSP first, after a doctype, and embeds the host origin safely', () => {
    assert.equal(
      withCspMeta('<!DOCTYPE html><p>x</p>', "default-src 'none'"),
      `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><p>x</p>`,
    );
    assert.ok(withCspMeta('<p>x</p>', 'p').startsWith('<meta http-equiv="Content-Security-Policy"'));
    const html = sandboxProxyHtml({ hostOrigin: 'http://127.0.0.1:8080' });
    assert.ok(html.includes('sandboxProxyMain("http://127.0.0.1:8080")'));
    assert.ok(html.includes('function buildAppCsp('), 'the CSP builder is embedded as is');
    assert.ok(!/<\/script>[\s\S]*<\/script>/.test(html), 'exactly one script element');
    assert.throws(() => sandboxProxyHtml({ hostOrigin: 'http://x/"</script>' }), /origin/);
  });
});

describe('startSandboxProxyServer', () => {
  test('serves the proxy page on its own loopback origin, one path, GET only, right Host only', async () => {
    const { startSandboxProxyServer } = await import('../serve/node-sandbox-server.js');
    const proxy = await startSandboxProxyServer({ hostOrigin: 'http://127.0.0.1:9' });
    try {
      assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+\/sandbox$/);
      const ok = await fetch(proxy.url);
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('cache-control'), 'no-store');
      assert.equal(
        ok.headers.get('content-security-policy'),
        null,
        'no CSP of its own (the view inherits it)',
      );
      assert.ok((await ok.text()).includes('sandboxProxyMain("http://127.0.0.1:9")'));
      assert.equal((await fetch(`${proxy.origin}/other`)).status, 404);
      assert.equal((await fetch(proxy.url, { method: 'POST' })).status, 405);
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(proxy.url, { headers: { host: 'evil.example:80' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 421, 'a rebinding Host header is refused');
    } finally {
      await proxy.close();
    }
  });

  test('domain origins: d<hash>.localhost at the proxy port, only when asked for, no other label', async () => {
    const { startSandboxProxyServer } = await import('../serve/node-sandbox-server.js');
    const { appDomainLabel, appDomainProxyUrl } = await import('./app-domain.js');
    const { request } = await import('node:http');
    const get = (url: string, host: string): Promise<number> =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    assert.match(appDomainLabel('x.example.com'), /^d[0-9a-f]{16}$/);
    assert.equal(appDomainLabel('x.example.com'), appDomainLabel('x.example.com'));
    assert.notEqual(appDomainLabel('x.example.com'), appDomainLabel('y.example.com'));
    for (const domains of [true, false]) {
      const proxy = await startSandboxProxyServer({ hostOrigin: 'http://127.0.0.1:9', domains });
      try {
        const port = new URL(proxy.url).port;
        const mapped = new URL(appDomainProxyUrl(proxy.url, 'x.example.com'));
        assert.equal(mapped.port, port);
        assert.equal(mapped.pathname, '/sandbox');
        assert.equal(await get(proxy.url, mapped.host), domains ? 200 : 421);
        assert.equal(await get(proxy.url, `evil.localhost:${port}`), 421);
        assert.equal(await get(proxy.url, `${appDomainLabel('x')}.localhost:1`), 421);
      } finally {
        await proxy.close();
      }
    }
  });
});
