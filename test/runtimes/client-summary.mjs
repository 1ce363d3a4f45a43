// What mcpkit's client sees of the fixture server in one era, as one JSON-able summary:
//   { era, protocolVersion, tools: [names], echo, sum, sumError, resource, prompt }
// or `{ asked, error }` when something threw. Shared by client-fixture.mjs (a process on
// Node, Bun or Deno) and workerd-client-worker.mjs (a Worker), so every runtime's client
// does exactly the same calls. It imports `mcpkit` and `mcpkit/http-client` through the
// package's exports, so each runtime (or bundler) picks its own export conditions.
import { Client } from 'mcpkit';
import { StreamableHttpClientTransport } from 'mcpkit/http-client';

const textOf = (result) =>
  result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');

/** One client's run against `url` in `era` (modern, legacy or auto): what it saw, or why it failed. */
export async function summarise(url, era) {
  let client;
  try {
    if (!url)
      throw new Error(
        'no server URL: client-fixture.mjs --url http://127.0.0.1:PORT/mcp, or /run?url=... of the client Worker',
      );
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
