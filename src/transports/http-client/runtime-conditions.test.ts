import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Dispatcher } from 'undici';
import { startEverything } from '../../test-support/http-server-harness.js';
import { undiciRequester } from './undici-requester.js';

// Bun and Deno take a package's `node` export condition when it has none of their own. The
// Node build of mcpkit/http-client defaults to undici's dispatcher, which Bun's built-in
// `undici` lacks (`dispatcher.dispatch is not a function`): both get the fetch build, and the
// Node build keeps working when a bundler picked it anyway.

const root = fileURLToPath(new URL('../../../', import.meta.url));

type Conditions = Record<string, unknown>;

describe('mcpkit/http-client on Bun and Deno', () => {
  test('the bun and deno conditions come before node and resolve to the fetch build', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, Conditions>;
    };
    const entry = pkg.exports['./http-client']!;
    const keys = Object.keys(entry);
    for (const runtime of ['bun', 'deno']) {
      assert.ok(keys.includes(runtime), runtime);
      // Conditions match in the order written: one after `node` would never be reached.
      assert.ok(keys.indexOf(runtime) < keys.indexOf('node'), `${runtime} before node`);
      assert.deepEqual(entry[runtime], { types: entry.types, default: entry.default });
    }
  });

  test('undiciRequester refuses a dispatcher that cannot dispatch, at once', () => {
    // What `import('undici')` gives on Bun: an Agent without dispatch().
    const stub = {} as Dispatcher;
    assert.throws(() => undiciRequester({ dispatcher: stub }), { code: 'CapabilityNotSupported' });
  });

  // The real runtime, when its binary is there (scripts provision it into the cache folder).
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const bun =
    process.env.MCPKIT_BUN ??
    join(cache, 'mcpkit-runtimes', 'bun', 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun');
  const skip = existsSync(bun) ? false : `no Bun binary at ${bun} (set MCPKIT_BUN)`;

  test(
    'on Bun, the Node build falls back to fetch and calls a server in both eras',
    { skip, timeout: 60_000 },
    async (t) => {
      const fixture = await startEverything();
      t.after(() => fixture.close());
      const dir = mkdtempSync(join(tmpdir(), 'mcpkit-bun-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const dist = (p: string): string => pathToFileURL(join(root, 'dist', p)).href;
      const script = join(dir, 'client.mjs');
      writeFileSync(
        script,
        `
      const { Client } = await import(${JSON.stringify(dist('client/client.js'))});
      const { StreamableHttpClientTransport, undiciRequester } = await import(${JSON.stringify(dist('transports/http-client/node.js'))});
      const out = [];
      for (const era of ['legacy', 'modern']) {
        const client = new Client({ name: 'bun', version: '1.0.0' }, { era });
        await client.connect(new StreamableHttpClientTransport({ url: ${JSON.stringify(fixture.url)} }));
        const r = await client.callTool({ name: 'echo', arguments: { text: era } });
        out.push(client.era + ':' + r.content[0].text);
        await client.close();
      }
      try { undiciRequester(); out.push('undici accepted'); } catch (e) { out.push(e.code); }
      console.log(JSON.stringify({ bun: typeof Bun, out }));`,
      );
      const child = spawn(bun, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, stderr);
      const report = JSON.parse(stdout.trim().split('\n').pop()!) as { bun: string; out: string[] };
      assert.equal(report.bun, 'object');
      assert.deepEqual(report.out, ['legacy:legacy', 'modern:modern', 'CapabilityNotSupported']);
    },
  );
});
