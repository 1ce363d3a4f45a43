import { WireError } from '../jsonrpc/index.js';
import { isLogLevel } from './logging-levels.js';
import type { LogLevel } from './logging-levels.js';
import { modernOnly } from './lifecycle.js';
import type { RequestHandler } from './session-types.js';

/** What the built-in handlers read from (and, for the log level, write to) their session. */
interface BuiltinHost {
  readonly versions: readonly string[];
  readonly capabilities: Record<string, unknown>;
  readonly instructions: string | undefined;
  legacyLogLevel: LogLevel | undefined;
}

const hostOf = (ctx: { session: unknown }): BuiltinHost => ctx.session as BuiltinHost;

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Tasks are declared in two places: the `tasks` slot of 2025-11-25 and, from 2026-07-28,
 * the `io.modelcontextprotocol/tasks` extension. Each revision sees only its own.
 */
export function capabilitiesFor(
  caps: Record<string, unknown>,
  era: 'legacy' | 'modern',
  version: string,
): Record<string, unknown> {
  const ext = caps.extensions as Record<string, unknown> | undefined;
  const hasExt = typeof ext === 'object' && ext !== null && Object.hasOwn(ext, TASKS_EXTENSION);
  const dropSlot = caps.tasks !== undefined && (era === 'modern' || version < '2025-11-25');
  if (!dropSlot && !(hasExt && era === 'legacy')) return caps;
  const out = { ...caps };
  if (dropSlot) delete out.tasks;
  if (hasExt && era === 'legacy') {
    const { [TASKS_EXTENSION]: _tasks, ...rest } = ext;
    if (Object.keys(rest).length > 0) out.extensions = rest;
    else delete out.extensions;
  }
  return out;
}

/** `ping`, in either direction (legacy era). */
export const pingHandler: RequestHandler = () => ({});

/** `server/discover`: the versions, capabilities and instructions of this server. */
export const discoverHandler: RequestHandler = (_params, ctx) => {
  const s = hostOf(ctx);
  const result: Record<string, unknown> = {
    supportedVersions: [...modernOnly(s.versions)].reverse(),
    capabilities: capabilitiesFor(s.capabilities, 'modern', ''),
  };
  if (s.instructions !== undefined) result.instructions = s.instructions;
  return result;
};

/** `logging/setLevel` (legacy): the minimum level for this connection's log messages. */
export const setLevelHandler: RequestHandler = (params, ctx) => {
  if (!isLogLevel(params.level)) {
    throw WireError.invalidParams(`Unknown log level: ${JSON.stringify(params.level)}`);
  }
  hostOf(ctx).legacyLogLevel = params.level;
  return {};
};
