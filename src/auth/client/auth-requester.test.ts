import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Cancel } from '../../transports/http-client/requester.js';
import type { HttpReply, HttpRequest } from '../../transports/http-client/requester.js';
import type { TokenSource } from './auth-fetch.js';
import { authRequester } from './auth-requester.js';

/** A reply with a status and headers, whose body is never read. */
function reply(status: number, headers: Record<string, string> = {}): HttpReply & { discarded: boolean } {
  return {
    status,
    statusText: '',
    discarded: false,
    header: (name) => headers[name] ?? null,
    headers: () => new Headers(headers),
    bytes: () => Promise.resolve(new Uint8Array(0)),
    read: () => Promise.resolve(),
    discard() {
      this.discarded = true;
    },
  };
}

function source(recover: TokenSource['recover'] = () => Promise.resolve()): TokenSource & { token: string } {
  const s = {
    serverUrl: new URL('https://mcp.example.com/mcp'),
    token: 't1',
    accessToken: () => Promise.resolve(s.token),
    recover,
  };
  return s;
}

const request = (url = 'https://mcp.example.com/mcp', cancel = new Cancel()): HttpRequest => ({
  method: 'POST',
  url: new URL(url),
  headers: { 'content-type': 'application/json' },
  body: '{}',
  cancel,
});

describe('authRequester', () => {
  test('adds the bearer token for the server origin only, without touching the caller headers', async () => {
    const seen: HttpRequest[] = [];
    const wrapped = authRequester(source(), (r) => (seen.push(r), Promise.resolve(reply(200))));
    const mine = request();
    await wrapped(mine);
    await wrapped(request('https://elsewhere.example.com/mcp'));
    assert.equal(seen[0]!.headers.authorization, 'Bearer t1');
    assert.equal(mine.headers.authorization, undefined);
    assert.equal(seen[1]!.headers.authorization, undefined);
  });

  test('a 401 recovers and retries with the new token; the refused reply is discarded', async () => {
    const s = source(() => {
      s.token = 't2';
      return Promise.resolve();
    });
    const replies = [reply(401, { 'www-authenticate': 'Bearer error="invalid_token"' }), reply(200)];
    const seen: string[] = [];
    const wrapped = authRequester(s, (r) => {
      seen.push(r.headers.authorization!);
      return Promise.resolve(replies.shift()!);
    });
    const first = replies[0]!;
    assert.equal((await wrapped(request())).status, 200);
    assert.deepEqual(seen, ['Bearer t1', 'Bearer t2']);
    assert.equal(first.discarded, true);
  });

  test('a 403 without insufficient_scope is returned as it is; attempts are bounded', async () => {
    let recovered = 0;
    const s = source(() => (recovered++, Promise.resolve()));
    const forbidden = authRequester(s, () => Promise.resolve(reply(403)));
    assert.equal((await forbidden(request())).status, 403);
    assert.equal(recovered, 0);
    const always401 = authRequester(s, () => Promise.resolve(reply(401)), 2);
    assert.equal((await always401(request())).status, 401);
    assert.equal(recovered, 2);
  });

  test('aborting while the authorization flow runs rejects with the reason at once', async () => {
    let flowStarted!: () => void;
    const running = new Promise<void>((resolve) => (flowStarted = resolve));
    // A user who never comes back.
    const s = source(() => {
      flowStarted();
      return new Promise(() => undefined);
    });
    const wrapped = authRequester(s, () => Promise.resolve(reply(401)));
    const cancel = new Cancel();
    const pending = wrapped(request(undefined, cancel));
    await running;
    cancel.abort(new Error('gave up'));
    await assert.rejects(pending, /gave up/);
  });
});
