/**
 * Test-only helpers for the inspector: an inspector over literal `mcpServers` entries,
 * raw HTTP requests (any Host, Origin or cookie), the shared Chromium, and the folder
 * screenshots go to. Not part of the public API.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseHostConfig } from '../host/index.js';
import { InspectorHost } from './inspector-host.js';
import { startInspectorServer } from './server.js';
import type { InspectorServer } from './server.js';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/** Our demo server on stdio, and the CLI. */
export const DEMO_STDIO = here('../demo/everything-stdio.js');
export const CLI = here('../cli/main.js');
export const EVERYTHING = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
);
export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of each screen, kept as test artifacts (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/inspector/', import.meta.url));

export interface RunningInspector {
  session: InspectorHost;
  server: InspectorServer;
  /** `http://127.0.0.1:PORT` */
  base: string;
  close(): Promise<void>;
}

/** An inspector over literal `mcpServers` entries, allowed as `mcpkit inspect` allows. */
export async function startInspector(servers: Record<string, unknown>): Promise<RunningInspector> {
  const config = { ...parseHostConfig({ mcpServers: servers }), defaultDecision: 'allow' as const };
  const session = new InspectorHost(config);
  const server = await startInspectorServer(session);
  await session.start();
  return {
    session,
    server,
    base: `http://127.0.0.1:${server.port}`,
    close: async () => {
      await server.close();
      await session.close();
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would not let a test forge Host). */
export function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Launches Debian's Chromium, headless; undefined when it is not installed. Playwright
 * gives each launch a fresh temporary profile, and each test a fresh context.
 */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function artifactsDir(): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}
