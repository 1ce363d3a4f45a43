/**
 * The host's file edges on Node: reading a config file, an approval store kept in a JSON
 * file, and an audit log appended as JSON lines.
 */
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditSink } from './policy/audit.js';
import { ConfigError } from './errors.js';
import { parseHostConfig } from './config/config-parse.js';
import type { ParseConfigOptions } from './config/config-parse.js';
import type { HostConfig } from './config/config-types.js';
import { MemoryApprovalStore } from './policy/pins.js';
import { isObject } from '../jsonrpc/is-object.js';

/**
 * Reads and validates a config file (Claude Desktop, Cursor, VS Code or mcpkit's own).
 * `${NAME}` reads `process.env` unless `env` is given. Errors name the file.
 *
 * @example
 * ```ts
 * const config = await loadHostConfig(`${process.env.HOME}/.cursor/mcp.json`);
 * ```
 */
export async function loadHostConfig(
  path: string,
  options: Omit<ParseConfigOptions, 'file'> = {},
): Promise<HostConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    const got =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new ConfigError([
      { file: path, server: undefined, field: '', expected: 'a readable config file', got },
    ]);
  }
  return parseHostConfig(text, { env: process.env, ...options, file: path });
}

/**
 * Pins and consents in a JSON file, written atomically (temp file, then rename) on every
 * change, readable only by the user.
 *
 * @example
 * ```ts
 * const host = new Host(config, { store: new JsonFileApprovalStore(`${home}/.config/mcpkit/approvals.json`) });
 * ```
 */
export class JsonFileApprovalStore extends MemoryApprovalStore {
  constructor(private readonly path: string) {
    super();
    try {
      const data = JSON.parse(readFileSync(path, 'utf8')) as { pins?: unknown; consents?: unknown };
      if (isObject(data.pins))
        for (const [k, v] of Object.entries(data.pins)) if (typeof v === 'string') this.pins[k] = v;
      if (isObject(data.consents)) for (const k of Object.keys(data.consents)) this.consents[k] = true;
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT')
        throw new Error(`Cannot read the approval store ${path}: ${(e as Error).message}`, { cause: e });
    }
  }

  protected override changed(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ pins: this.pins, consents: this.consents }, null, 2) + '\n', {
      mode: 0o600,
    });
    renameSync(tmp, this.path);
  }
}

/**
 * An audit sink appending JSON lines to a file (created with mode 0600). Appends are
 * synchronous, so no entry is lost when the process ends.
 *
 * @example
 * ```ts
 * const host = new Host(config, { audit: fileAudit('/var/log/mcpkit/audit.jsonl') });
 * ```
 */
export function fileAudit(path: string): AuditSink {
  mkdirSync(dirname(path), { recursive: true });
  return (entry) => {
    const line = JSON.stringify(entry) + '\n';
    let size = 0;
    try {
      size = statSync(path).size;
    } catch {
      // Not created yet.
    }
    try {
      appendFileSync(path, line, { mode: 0o600 });
    } catch (e) {
      // A partial line (disk full) would corrupt the log: cut it off again.
      try {
        truncateSync(path, size);
      } catch {
        // Nothing more can be done; the error below says what happened.
      }
      const code = (e as { code?: string }).code;
      throw new Error(
        `Cannot append to the audit log ${path}${code === 'ENOSPC' ? ': the disk is full' : ''}: ${(e as Error).message}`,
        { cause: e },
      );
    }
  };
}
