// A preload (`node --import <this file>`) that records every module the process loads, ESM
// through a load hook and CommonJS through the require cache, and writes their URLs, one per
// line, to the file named by MODULE_TRACE_FILE when the process exits. Tests use it to prove
// that a code path does not load a dependency.
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';

const out = process.env.MODULE_TRACE_FILE;
if (out) {
  const seen = new Set<string>();
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url: string) => seen.add(url));
  port1.unref();
  // The hook runs on the loader thread and posts each URL before the module loads. A message
  // posted there can still sit in this port's queue at exit (the port is unref'd, and the
  // loader's answer travels on another channel), so the exit handler drains it synchronously.
  const hooks = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url, {
    data: { port: port2 },
    transferList: [port2],
  });
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => {
    for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) {
      seen.add(m.message as string);
    }
    for (const k of Object.keys(cache)) seen.add(k);
    writeFileSync(out, [...seen].join('\n'));
  });
}
