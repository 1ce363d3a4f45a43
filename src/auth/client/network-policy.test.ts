import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthError } from '../errors.js';
import { GuardedFetch } from './guarded-fetch.js';
import {
  checkAuthorizationUrl,
  checkFetchTarget,
  checkFetchUrl,
  hostKind,
  parseIPv6,
} from './network-policy.js';

const host = (url: string): string => new URL(url).hostname;
const unsafe = (e: unknown): boolean => e instanceof AuthError && e.code === 'UnsafeUrl';

describe('hostKind', () => {
  const table: [string, string][] = [
    ['https://example.com/', 'public'],
    ['https://8.8.8.8/', 'public'],
    ['https://[2606:4700::1111]/', 'public'],
    ['http://localhost/', 'loopback'],
    ['http://api.localhost/', 'loopback'],
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.255.0.9/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    // Encoding tricks, normalized by the URL parser.
    ['http://0x7f.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:169.254.169.254]/', 'private'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'private'],
    ['http://[2002:a9fe:a9fe::]/', 'private'],
    ['http://169.254.169.254/', 'private'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.0.1/', 'private'],
    ['http://100.64.0.1/', 'private'],
    ['http://0.0.0.0/', 'private'],
    ['http://[::]/', 'private'],
    ['http://[fd00::1]/', 'private'],
    ['http://[fe80::1]/', 'private'],
    ['http://224.0.0.1/', 'private'],
    ['http://intranet/', 'private'],
    ['http://printer.local/', 'private'],
    ['http://metadata.google.internal/', 'private'],
    ['https://172.32.0.1/', 'public'],
  ];
  for (const [url, kind] of table) {
    it(`${url} is ${kind}`, () => assert.equal(hostKind(host(url)), kind));
  }

  it('parses IPv6 with an embedded IPv4 tail and zone ids', () => {
    assert.deepEqual(parseIPv6('::ffff:10.0.0.1'), [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001]);
    assert.equal(hostKind('fe80::1%eth0'), 'private');
    assert.equal(parseIPv6('1::2::3'), undefined);
    assert.equal(parseIPv6('12345::'), undefined);
  });
});

describe('checkFetchUrl', () => {
  it('accepts public https', () =>
    assert.equal(checkFetchUrl('https://auth.example.com/x', 'm', {}).host, 'auth.example.com'));

  it('refuses http, private, loopback (unless allowed), credentials and other schemes', () => {
    for (const bad of [
      'http://auth.example.com/',
      'https://10.0.0.1/',
      'https://localhost/',
      'https://user:pw@auth.example.com/',
      'ftp://auth.example.com/',
      'file:///etc/passwd',
      'not a url',
    ]) {
      assert.throws(() => checkFetchUrl(bad, 'metadata URL', {}), unsafe, bad);
    }
  });

  it('allows loopback over http only when allowLoopback is set', () => {
    assert.throws(() => checkFetchUrl('http://127.0.0.1:8080/', 'm', {}), unsafe);
    assert.equal(checkFetchUrl('http://127.0.0.1:8080/', 'm', { allowLoopback: true }).port, '8080');
    assert.throws(() => checkFetchUrl('http://example.com/', 'm', { allowLoopback: true }), unsafe);
    assert.ok(checkFetchUrl('http://example.com/', 'm', { allowHttp: true }));
    assert.ok(checkFetchUrl('https://10.0.0.1/', 'm', { allowPrivateNetwork: true }));
  });

  it('checks the addresses a name resolves to when a resolver is given', async () => {
    const policy = { resolveHost: async () => ['93.184.216.34', '10.0.0.5'] };
    await assert.rejects(checkFetchTarget(new URL('https://sneaky.example.com/'), 'm', policy), unsafe);
    const fine = { resolveHost: async () => ['93.184.216.34'] };
    await checkFetchTarget(new URL('https://ok.example.com/'), 'm', fine);
  });
});

describe('checkAuthorizationUrl', () => {
  for (const bad of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'ms-settings:',
    'http://auth.example.com/authorize',
    '//auth.example.com/authorize',
  ]) {
    it(`refuses ${bad}`, () => assert.throws(() => checkAuthorizationUrl(bad, {}), unsafe));
  }
  it('accepts https and loopback http (when allowed)', () => {
    assert.ok(checkAuthorizationUrl('https://auth.example.com/authorize?x=1', {}));
    assert.ok(checkAuthorizationUrl('http://127.0.0.1:9000/authorize', { allowLoopback: true }));
  });
});

describe('GuardedFetch', () => {
  function fake(routes: Record<string, () => Response>): { fetch: typeof fetch; hits: string[] } {
    const hits: string[] = [];
    const f = async (input: RequestInfo | URL): Promise<Response> => {
      const href = String(input);
      hits.push(href);
      const r = routes[href];
      return r ? r() : new Response('nope', { status: 404 });
    };
    return { fetch: f as typeof fetch, hits };
  }

  it('follows redirects for GET, checking each hop before requesting it', async () => {
    const f = fake({
      'https://a.example.com/x': () =>
        new Response(null, { status: 302, headers: { location: 'https://b.example.com/y' } }),
      'https://b.example.com/y': () =>
        new Response(null, { status: 301, headers: { location: 'http://169.254.169.254/' } }),
    });
    const g = new GuardedFetch({ policy: {}, fetch: f.fetch });
    await assert.rejects(
      g.fetch(new URL('https://a.example.com/x'), { what: 'metadata', follow: true }),
      unsafe,
    );
    assert.deepEqual(f.hits, ['https://a.example.com/x', 'https://b.example.com/y']);
  });

  it('never follows redirects for POST, nor without follow', async () => {
    const f = fake({
      'https://a.example.com/t': () =>
        new Response(null, { status: 307, headers: { location: 'https://c.example.com/' } }),
    });
    const g = new GuardedFetch({ policy: {}, fetch: f.fetch });
    const r = await g.fetch(new URL('https://a.example.com/t'), {
      what: 'token endpoint',
      method: 'POST',
      body: 'x',
      follow: true,
    });
    assert.equal(r.status, 307);
    assert.deepEqual(f.hits, ['https://a.example.com/t']);
  });

  it('bounds the body', async () => {
    const f = fake({ 'https://a.example.com/big': () => new Response('x'.repeat(2000)) });
    const g = new GuardedFetch({ policy: {}, fetch: f.fetch, maxBodyBytes: 1000 });
    await assert.rejects(
      g.fetch(new URL('https://a.example.com/big'), { what: 'metadata' }),
      /exceeded 1000 bytes/,
    );
  });
});
