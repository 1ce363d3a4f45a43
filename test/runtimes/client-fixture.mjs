// mcpkit's client, run ON a runtime (Node, Bun, Deno) against the fixture server at `--url U`,
// in `--era E` (modern, legacy or auto; default auto; a comma-separated list runs each in
// turn in this one process). For each era it prints one JSON line summarising what it saw
// (client-summary.mjs), for the test to compare across runtimes:
//   { era, protocolVersion, tools: [names], echo, sum, sumError, resource, prompt }
// or `{ error }` (and exit code 1) when something threw.
import { summarise } from './client-summary.mjs';

const args = globalThis.Deno?.args ?? globalThis.process?.argv?.slice(2) ?? [];
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const url = option('url');
const eras = option('era', 'auto').split(',');

for (const era of eras) {
  const summary = await summarise(url, era);
  console.log(JSON.stringify(summary));
  if (summary.error !== undefined) globalThis.process.exitCode = 1;
}
