/**
 * An oversized body always gets its 413: the client is still sending when the answer is
 * ready, so the server must not close a socket with unread input (the kernel would reset
 * it and the client would see ECONNRESET instead of the status). Tried in a loop, many at
 * once, with an honest Content-Length and with a chunked body. The server runs in its own
 * process (the CLI's demo server), as in production: in one event loop the client never
 * races the server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { POST_HEADERS, initializeRequest, postJson } from '../../test-support/http-server-harness.js';
import { startDemoProcess } from '../../test-support/demo-process.js';
import type { DemoProcess } from '../../test-support/demo-process.js';

let demo: DemoProcess;
let url = '';
before(async () => {
  demo = await startDemoProcess();
  url = demo.url;
});
after(() => demo?.stop());

/** POSTs `bytes` of body; resolves with the status, or the socket error's code. */
function upload(url: string, bytes: number, chunked: boolean): Promise<number | string> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...POST_HEADERS };
    if (!chunked) headers['content-length'] = String(bytes);
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    const chunk = Buffer.alloc(256 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('oversized bodies under parallel load', () => {
  test('5 MiB against the 4 MiB default: every upload gets 413, never a reset', async () => {
    const outcomes: Array<number | string> = [];
    for (let round = 0; round < 8; round++) {
      const batch = await Promise.all(
        Array.from({ length: 12 }, (_, i) => upload(url, 5 << 20, (round + i) % 2 === 0)),
      );
      outcomes.push(...batch);
    }
    assert.deepEqual(
      outcomes.filter((o) => o !== 413),
      [],
      `every upload answered 413 (${outcomes.length} tried)`,
    );
    // The server still serves.
    assert.equal((await postJson(url, initializeRequest())).status, 200);
  });
});
