/**
 * The Node edge of the host: turns a server config into a transport (a child process in
 * its own process group, or an HTTP client), and opens URLs for URL-mode elicitation
 * without a shell. The rest of the host never imports `node:*`.
 */
import { spawn } from 'node:child_process';
import type { Transport } from '../../jsonrpc/index.js';
import { SseClientTransport, StreamableHttpClientTransport } from '../../transports/http-client/node.js';
import { StdioClientTransport } from '../../transports/stdio/index.js';
import type { ServerConfig } from '../config/config-types.js';

/**
 * The default transport factory: stdio servers are spawned without a shell in their own
 * process group (stdin closed, then SIGTERM, then SIGKILL for the whole group on stop);
 * HTTP servers get Streamable HTTP with the legacy HTTP+SSE fallback, or plain HTTP+SSE
 * for `type: "sse"`.
 *
 * @example
 * ```ts
 * const host = new Host(config, { serverTransport: (s) => (s.name === 'mock' ? memoryEnd : serverTransport(s)) });
 * ```
 */
export function serverTransport(config: ServerConfig, options: { fetch?: typeof fetch } = {}): Transport {
  if (config.transport === 'stdio') {
    return new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
      stderr: config.stderr === 'capture' ? 'pipe' : config.stderr,
      closeGraceMs: 1000,
    });
  }
  const common = {
    url: config.url,
    headers: config.headers,
    onwarning: () => undefined,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  if (config.transport === 'sse') return new SseClientTransport(common);
  return new StreamableHttpClientTransport({ ...common, legacySseFallback: config.legacySseFallback });
}

/**
 * Opens an http(s) URL in the user's browser: `xdg-open`, `open` or `explorer.exe`, with
 * the URL as a single argument and no shell, so nothing in it is interpreted. Refuses
 * anything but http and https.
 *
 * @example
 * ```ts
 * await openInBrowser('https://example.com/connect?elicitationId=42');
 * ```
 */
export function openInBrowser(url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.reject(new Error('Not a valid URL'));
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return Promise.reject(new Error(`Only http and https URLs are opened, not ${parsed.protocol}`));
  }
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  return new Promise((resolve, reject) => {
    const child = spawn(command, [parsed.href], { shell: false, stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
