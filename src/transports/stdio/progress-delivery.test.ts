/**
 * The official SDK clients (v1 and v2) handle a response at once but a notification a
 * microtask later, so a progress notification read in the same chunk as its response is
 * lost. A tool that reports progress and returns in the same tick must still have its last
 * progress delivered: the server never puts the two in one write.
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
});
