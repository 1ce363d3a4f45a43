// mcpkit's client, run ON a runtime (Node, Bun, Deno) against the fixture server at `--url U`,
// in `--era E` (modern, legacy or auto; default auto; a comma-separated list runs each in
// turn in this one process). It imports `mcpkit` and `mcpkit/http-client` through the
// package's exports, so each runtime picks its own export conditions. For each era it prints
// one JSON line summarising what it saw, for the test to compare across runtimes:
//   { era, protocolVersion, tools: [names], echo, sum, sumError, resource, prompt }
// or `{ error }` (and exit code 1) when something threw.
import { Client } from 'mcpkit';
import { StreamableHttpClientTransport } from 'mcpkit/http-client';

const args = globalThis.Deno?.args ?? globalThis.process?.argv?.slice(2) ?? [];
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const url = option('url');
const eras = option('era', 'auto').split(',');

const textOf = (result) =>
  result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');

/** One client's run in one era: what it saw, or why it failed. */
async function summarise(era) {
  let client;
  try {
    if (!url)
      throw new Error('usage: client-fixture.mjs --url http://127.0.0.1:PORT/mcp [--era modern,legacy]');
    client = new Client({ name: 'runtime-client-fixture', version: '1.0.0' }, { era });
    await client.connect(new StreamableHttpClientTransport({ url }));
    const tools = [];
    for await (const tool of client.tools()) tools.push(tool.name);
    const echo = textOf(await client.callTool({ name: 'echo', arguments: { text: 'héllo 🌍' } }));
    const sum = (await client.callTool({ name: 'sum', arguments: { a: 2, b: 3 } })).structuredContent;
    let sumError;
    try {
      const bad = await client.callTool({ name: 'sum', arguments: { a: 'two' } });
      sumError = bad.isError === true ? 'isError' : 'accepted';
    } catch (err) {
      sumError = typeof err?.code === 'number' ? err.code : String(err?.message ?? err);
    }
    const read = await client.readResource({ uri: 'test://hello' });
    const resource = read.contents.map((c) => c.text).join('');
    const got = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    const prompt = got.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('');
    return {
      era: client.era,
      protocolVersion: client.protocolVersion,
      tools: tools.sort(),
      echo,
      sum,
      sumError,
      resource,
      prompt,
    };
  } catch (err) {
    // The causes too: a transport failure says why only there.
    let error = String(err?.stack ?? err);
    for (let cause = err?.cause, depth = 0; cause !== undefined && depth < 4; cause = cause?.cause, depth++)
      error += `\ncaused by: ${String(cause?.stack ?? cause)}`;
    return { asked: era, error };
  } finally {
    await client?.close().catch(() => {});
  }
}

for (const era of eras) {
  const summary = await summarise(era);
  console.log(JSON.stringify(summary));
  if (summary.error !== undefined) globalThis.process.exitCode = 1;
}
