/**
 * The official SDK clients (v1 and v2) handle a response at once but a notification a
 * microtask later, so a progress notification read in the same chunk as its response is
 * lost. A tool that reports progress and returns in the same tick must still have its last
 * progress delivered, however late the client reads: the server writes the response's line
 * so far after the progress that no 64 KiB read of the pipe can hold both.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';

const FIXTURE = fileURLToPath(new URL('./fixtures/hardening-server.js', import.meta.url));
const CHILD = { command: process.execPath, args: [FIXTURE], stderr: 'ignore' as const };
const CALLS = 40;

type Progress = { progress: number };
type Sendable = { send(message: unknown, options?: unknown): Promise<void> };

/**
 * Makes the client a late reader: once a `tools/call` is on the pipe, its event loop is held
 * busy for a while, as a descheduled process would be, so the server's progress and its
 * response are both waiting in the pipe when the client reads again. (The hold stands for
 * load; no outcome waits on it: a slower server only makes the case milder.)
 */
function readLate<T extends Sendable>(transport: T, holdMs: number): T {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if ((message as { method?: string }).method !== 'tools/call') return;
    const until = performance.now() + holdMs;
    while (performance.now() < until);
  };
  return transport;
}
type Call = (onprogress: (p: Progress) => void) => Promise<unknown>;

/** Calls `burst` CALLS times; returns how many calls saw their last progress (3 of 3). */
async function lastProgressSeen(call: Call): Promise<number> {
  let complete = 0;
  for (let i = 0; i < CALLS; i++) {
    const seen: number[] = [];
    await call((p) => void seen.push(p.progress));
    // A notification is handled a microtask after it is read: let it run.
    await new Promise((r) => setImmediate(r));
    if (seen.includes(3)) complete++;
  }
  return complete;
}

describe('the last progress of a tool that answers at once reaches the official clients', () => {
  test('SDK v1 client', async () => {
    const client = new V1Client({ name: 'v1', version: '1.0.0' });
    await client.connect(new V1Stdio(CHILD));
    try {
      const n = await lastProgressSeen((onprogress) =>
        client.callTool({ name: 'burst', arguments: {} }, undefined, { onprogress }),
      );
      assert.equal(n, CALLS, `the last progress arrived in ${n} of ${CALLS} calls`);
    } finally {
      await client.close();
    }
  });

  test('SDK v2 client', async () => {
    const client = new V2Client({ name: 'v2', version: '2.0.0' });
    await client.connect(new V2Stdio(CHILD));
    try {
      const n = await lastProgressSeen((onprogress) =>
        client.callTool({ name: 'burst', arguments: {} }, { onprogress: onprogress as never }),
      );
      assert.equal(n, CALLS, `the last progress arrived in ${n} of ${CALLS} calls`);
    } finally {
      await client.close();
    }
  });

  test('SDK v1 and v2 clients that read late (both messages already in the pipe)', async () => {
    const v1 = new V1Client({ name: 'v1', version: '1.0.0' });
    const v2 = new V2Client({ name: 'v2', version: '2.0.0' });
    await v1.connect(readLate(new V1Stdio(CHILD), 150) as never);
    await v2.connect(readLate(new V2Stdio(CHILD), 150) as never);
    try {
      const late = 8;
      let n1 = 0;
      let n2 = 0;
      for (let i = 0; i < late; i++) {
        const seen: number[] = [];
        const onprogress = (p: Progress) => void seen.push(p.progress);
        await v1.callTool({ name: 'burst', arguments: {} }, undefined, { onprogress });
        await new Promise((r) => setImmediate(r));
        if (seen.includes(3)) n1++;
        seen.length = 0;
        await v2.callTool({ name: 'burst', arguments: {} }, { onprogress: onprogress as never });
        await new Promise((r) => setImmediate(r));
        if (seen.includes(3)) n2++;
      }
      assert.deepEqual(
        [n1, n2],
        [late, late],
        `the last progress arrived in ${n1} (v1), ${n2} (v2) of ${late}`,
      );
    } finally {
      await v1.close();
      await v2.close();
    }
  });
});
