/**
 * The API behind the Load and Lint views: `load` runs the same engine as `mcpkit load` over
 * its own connections to one server (not the session's, and not recorded: thousands of calls
 * would push everything else out of the history), streaming each time bucket to the page;
 * `load-stop` ends a run early; `lint` runs `mcpkit lint`'s checks over the session's
 * connection, plus the Server Card (HTTP) and the `server.json` in a stdio server's folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../client/client.js';
import { HOSTS } from '../host/lint/finding.js';
import type { HostFamily, LintFinding } from '../host/lint/finding.js';
import {
  checkServerCard,
  checkServerJson,
  lintClient,
  lintSummary,
  sortFindings,
} from '../host/lint/lint-run.js';
import { runLoad } from '../host/load/load-run.js';
import type { InspectorHost } from './inspector-host.js';

type Operation = (b: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;

/** Bounds on what the page may ask for: a run the page cannot stop would be a bug, not a test. */
const MAX_CLIENTS = 64;
const MAX_CALLS = 1_000_000;
const MAX_DURATION_MS = 600_000;

function whole(v: unknown, name: string, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max)
    throw new Error(`"${name}" must be a whole number from 1 to ${max}`);
  return v;
}

function text(v: unknown, name: string): string {
  if (typeof v !== 'string' || v === '') throw new Error(`"${name}" must be a non-empty string`);
  return v;
}

/** The Load and Lint operations, keyed by their path under `/api/`. */
export function loadLintOperations(session: InspectorHost): Record<string, Operation> {
  const runs = new Map<string, AbortController>();
  return {
    load: async (b, signal) => {
      const runId = text(b.runId, 'runId');
      const server = text(b.server, 'server');
      const tool = text(b.tool, 'tool');
      const args =
        typeof b.arguments === 'object' && b.arguments !== null && !Array.isArray(b.arguments)
          ? (b.arguments as Record<string, unknown>)
          : {};
      const clients = whole(b.clients, 'clients', MAX_CLIENTS) ?? 1;
      const calls = whole(b.calls, 'calls', MAX_CALLS);
      let durationMs = whole(b.durationMs, 'durationMs', MAX_DURATION_MS);
      if (calls !== undefined && durationMs !== undefined)
        throw new Error('Choose one of calls and durationMs');
      if (calls === undefined) durationMs ??= 10_000;
      if (runs.has(runId)) throw new Error(`A run "${runId}" is already going`);
      session.newConnection(server); // fails early on an unknown server
      const stop = new AbortController();
      const onabort = (): void => stop.abort();
      signal.addEventListener('abort', onabort);
      runs.set(runId, stop);
      try {
        const report = await runLoad(
          async () => {
            const { config, transport } = session.newConnection(server);
            const client = new Client(
              { name: 'mcpkit-inspector-load', version: '0.1.0' },
              { era: config.era, timeoutMs: config.timeouts.callMs },
            );
            await client.connect(transport, { timeoutMs: config.timeouts.connectMs });
            return client;
          },
          {
            tool,
            args,
            clients,
            ...(calls !== undefined ? { calls } : {}),
            ...(durationMs !== undefined ? { durationMs } : {}),
            signal: stop.signal,
            // About 100 points over a timed run; a counted run cannot know its length.
            bucketMs: durationMs !== undefined ? Math.min(5000, Math.max(100, durationMs / 100)) : 250,
            onstart: (n) => session.publish({ type: 'load', runId, started: n }),
            onbucket: (bucket) => session.publish({ type: 'load', runId, bucket }),
          },
        );
        session.publish({ type: 'load', runId, report });
        return { report };
      } finally {
        runs.delete(runId);
        signal.removeEventListener('abort', onabort);
      }
    },
    'load-stop': async (b) => {
      const run = runs.get(text(b.runId, 'runId'));
      run?.abort();
      return { stopped: run !== undefined };
    },
    lint: async (b, signal) => {
      const server = text(b.server, 'server');
      const hosts = Array.isArray(b.hosts)
        ? (b.hosts.filter((h) => (HOSTS as readonly unknown[]).includes(h)) as HostFamily[])
        : HOSTS;
      const client = session.host.client(server);
      if (!client) throw new Error(`Server "${server}" is not connected`);
      const { findings, inventory } = await lintClient(client, { hosts, probe: b.probe === true });
      const config = session.config.servers[server];
      const checked: string[] = [];
      if (config?.transport === 'stdio') {
        const dir = config.cwd ?? process.cwd();
        const file = join(dir, 'server.json');
        if (existsSync(file)) {
          const pkg = join(dir, 'package.json');
          await checkServerJson(
            readFileSync(file, 'utf8'),
            existsSync(pkg) ? readFileSync(pkg, 'utf8') : undefined,
            findings,
          );
          checked.push(file);
        }
      } else if (config) {
        await checkServerCard(config.url, findings, signal);
        checked.push('server-card');
      }
      sortFindings(findings);
      return { findings, summary: lintSummary(findings, inventory), checked } satisfies {
        findings: LintFinding[];
        summary: unknown;
        checked: string[];
      };
    },
  };
}
