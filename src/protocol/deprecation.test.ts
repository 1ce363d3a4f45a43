import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const deprecation = new URL('./deprecation.js', import.meta.url).href;
const clientModule = new URL('../client/client.js', import.meta.url).href;
const serverModule = new URL('../server/server.js', import.meta.url).href;
const memoryModule = new URL('../transports/memory/index.js', import.meta.url).href;

/** Runs `script` as an ES module in a fresh Node process; resolves with its stderr. */
function run(script: string, env: Record<string, string | undefined> = {}): Promise<string> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The test runner silences warnings for everything else; these children choose for themselves.
  if (!('MCPKIT_NO_DEPRECATION' in env)) delete childEnv.MCPKIT_NO_DEPRECATION;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { cwd: here, env: childEnv, timeout: 30_000 },
      (err, _stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stderr)),
    );
  });
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;

test('warns once per process per feature, as a DeprecationWarning with a code', async () => {
  const stderr = await run(`
    import { warnDeprecated } from '${deprecation}';
    warnDeprecated('roots', 'roots are old');
    warnDeprecated('roots', 'roots are old');
    warnDeprecated('sampling', 'sampling is old');
  `);
  assert.equal(count(stderr, 'DeprecationWarning: roots are old'), 1, stderr);
  assert.equal(count(stderr, 'DeprecationWarning: sampling is old'), 1, stderr);
  assert.match(stderr, /\[MCPKIT_DEP_ROOTS\]/);
});

test('MCPKIT_NO_DEPRECATION=1 silences every warning', async () => {
  const stderr = await run(
    `import { warnDeprecated } from '${deprecation}'; warnDeprecated('roots', 'roots are old');`,
    { MCPKIT_NO_DEPRECATION: '1' },
  );
  assert.equal(stderr, '');
});

test('silenceDeprecations() silences every later warning', async () => {
  const stderr = await run(`
    import { silenceDeprecations, warnDeprecated } from '${deprecation}';
    silenceDeprecations();
    warnDeprecated('roots', 'roots are old');
  `);
  assert.equal(stderr, '');
});

test('without a process (browsers, Workers) it falls back to console.warn, still once', async () => {
  const stderr = await run(`
    const saved = globalThis.process;
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    const { warnDeprecated } = await import('${deprecation}');
    warnDeprecated('logging', 'logging is old');
    warnDeprecated('logging', 'logging is old');
    globalThis.process = saved;
  `);
  assert.equal(count(stderr, 'DeprecationWarning [MCPKIT_DEP_LOGGING]: logging is old'), 1, stderr);
});

test('a client declaring roots and sampling warns once for each, however many clients there are', async () => {
  const stderr = await run(`
    import { Client } from '${clientModule}';
    for (let i = 0; i < 3; i++)
      new Client({ name: 'c', version: '1' }, { handlers: { roots: [], sampling: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }) } });
    new Client({ name: 'plain', version: '1' }, { handlers: { elicitation: () => ({ action: 'decline' }) } });
  `);
  assert.equal(count(stderr, '[MCPKIT_DEP_ROOTS]'), 1, stderr);
  assert.equal(count(stderr, '[MCPKIT_DEP_SAMPLING]'), 1, stderr);
  assert.equal(count(stderr, '[MCPKIT_DEP_LOGGING]'), 0, stderr);
});

test('a client without deprecated features, and a server that does not use them, stay quiet', async () => {
  const stderr = await run(`
    import { Client } from '${clientModule}';
    import { McpServer } from '${serverModule}';
    new Client({ name: 'c', version: '1' });
    new McpServer({ name: 's', version: '1' });
  `);
  assert.equal(stderr, '');
});

test('a server calling ctx.log and ctx.listRoots warns once for each, however often it calls them', async () => {
  const stderr = await run(`
    import { Client } from '${clientModule}';
    import { McpServer } from '${serverModule}';
    import { memoryPair } from '${memoryModule}';
    const server = new McpServer({ name: 's', version: '1' });
    server.tool({ name: 'old', description: 'uses deprecated features' }, async (_args, ctx) => {
      ctx.log('info', 'one');
      ctx.log('info', 'two');
      await ctx.listRoots().catch(() => undefined);
      return 'done';
    });
    const [a, b] = memoryPair();
    await server.connect(b);
    const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
    await client.connect(a);
    await client.callTool({ name: 'old', arguments: {} });
    await client.callTool({ name: 'old', arguments: {} });
    await client.close();
    await server.close();
  `);
  assert.equal(count(stderr, '[MCPKIT_DEP_LOGGING]'), 1, stderr);
  assert.equal(count(stderr, '[MCPKIT_DEP_ROOTS]'), 1, stderr);
  assert.equal(count(stderr, '[MCPKIT_DEP_SAMPLING]'), 0, stderr);
});
