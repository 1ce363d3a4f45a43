import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describeJsonError } from '../jsonrpc/json-position.js';
import { CliFailure, ExitCode } from './exit-codes.js';
import { suggestion } from './suggest.js';

/** One server entry as the usual config files write it. */
export interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  type?: string;
}

/** Where MCP clients usually keep their server lists, most local first. */
export function defaultConfigPaths(cwd = process.cwd(), home = homedir()): string[] {
  return [
    join(cwd, '.mcp.json'),
    join(cwd, 'mcp.json'),
    join(cwd, '.vscode', 'mcp.json'),
    join(cwd, '.cursor', 'mcp.json'),
    join(home, '.cursor', 'mcp.json'),
    join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
  ];
}

/**
 * Finds `name` in a config file (`mcpServers`, or VS Code's `servers`); `doc` is the whole
 * file, for the warnings about it.
 */
export function findServer(
  name: string,
  configPath?: string,
): { entry: ServerEntry; file: string; doc: unknown } {
  const files = configPath ? [configPath] : defaultConfigPaths().filter((f) => existsSync(f));
  if (files.length === 0) {
    throw new CliFailure('No MCP config file found; pass --config FILE', ExitCode.Usage);
  }
  const names: string[] = [];
  for (const file of files) {
    let text: string;
    let doc: unknown;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new CliFailure(`${file}: ${(e as Error).message}`, ExitCode.Usage);
    }
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new CliFailure(`${file}: not valid JSON: ${describeJsonError(text, e)}`, ExitCode.Usage);
    }
    const d = doc as { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> };
    const servers = d.mcpServers ?? d.servers ?? {};
    if (Object.hasOwn(servers, name)) {
      const entry = servers[name];
      if (typeof entry !== 'object' || entry === null)
        throw new CliFailure(`${file}: server "${name}" must be an object`, ExitCode.Usage);
      return { entry: entry as ServerEntry, file, doc };
    }
    names.push(...Object.keys(servers));
  }
  throw new CliFailure(
    `No server named "${name}" in ${files.join(', ')}${suggestion(name, names)}`,
    ExitCode.Usage,
  );
}

/** `${VAR}` expansion from the environment. */
export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v: string) => env[v] ?? '');
}
