/**
 * Test-only helpers for the host tests: where the real servers live, a host built from
 * a literal `mcpServers` object with a scripted UI and an in-memory audit trail, and
 * polling. Not part of the public API.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuditTrail } from '../host/policy/audit.js';
import { parseHostConfig } from '../host/config/config-parse.js';
import { Host } from '../host/host.js';
import type { HostOptions } from '../host/host.js';
import { ScriptedUi } from '../host/ui/ui.js';
import type { ScriptedAnswers } from '../host/ui/ui.js';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/** Our demo "everything" server on stdio. */
export const OURS = here('../demo/everything-stdio.js');
/** The bad server of the fault tests. */
export const ROGUE = here('../host/fixtures/rogue-server.js');
/** The official reference servers from npm, run as real child processes. */
export const EVERYTHING = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
);
export const FILESYSTEM = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
);
export const NODE = process.execPath;

/** A stdio entry running a Node script. */
export function nodeServer(
  script: string,
  args: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command: NODE, args: [script, ...args], ...extra };
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'mcpkit-host-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A host over the given `mcpServers`, with a scripted UI (start allowed, calls allowed once) and an audit trail. */
export function makeHost(
  servers: Record<string, unknown>,
  options: HostOptions & { answers?: ScriptedAnswers; top?: Record<string, unknown> } = {},
): { host: Host; ui: ScriptedUi; trail: AuditTrail } {
  const { answers, top, ...hostOptions } = options;
  const config = parseHostConfig({ mcpServers: servers, ...top }, { env: process.env });
  const ui =
    (hostOptions.ui as ScriptedUi | undefined) ??
    new ScriptedUi({ confirmCommand: true, approveTool: 'once', ...answers });
  const trail = new AuditTrail();
  const extra =
    hostOptions.audit === undefined
      ? []
      : Array.isArray(hostOptions.audit)
        ? hostOptions.audit
        : [hostOptions.audit];
  const host = new Host(config, { ...hostOptions, ui, audit: [...extra, trail.sink] });
  return { host, ui, trail };
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
