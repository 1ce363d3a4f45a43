import { WireError } from '../jsonrpc/index.js';
import { TASKS_EXTENSION } from '../protocol/meta-keys.js';
import { warnDeprecated } from '../protocol/deprecation.js';
import { LOGGING_DEPRECATED } from '../protocol/deprecated-features.js';
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

/**
 * The server's capabilities as a legacy connection sees them: without the 2026-07-28 tasks
 * extension (2025-11-25 declares tasks in its own `tasks` slot). Everything else that differs
 * by revision (that slot, `extensions`, `completions`) is the shaping table's job.
 */
export function legacyCapabilities(caps: Record<string, unknown>): Record<string, unknown> {
  const ext = caps.extensions;
  if (typeof ext !== 'object' || ext === null || !Object.hasOwn(ext, TASKS_EXTENSION)) return caps;
  const { [TASKS_EXTENSION]: _tasks, ...rest } = ext as Record<string, unknown>;
  const out: Record<string, unknown> = { ...caps, extensions: rest };
  if (Object.keys(rest).length === 0) delete out.extensions;
  return out;
}

/** `ping`, in either direction (legacy era). */
export const pingHandler: RequestHandler = () => ({});

/** `server/discover`: the versions, capabilities and instructions of this server. */
export const discoverHandler: RequestHandler = (_params, ctx) => {
  const s = hostOf(ctx);
  const result: Record<string, unknown> = {
    supportedVersions: [...modernOnly(s.versions)].reverse(),
    capabilities: s.capabilities,
  };
  if (s.instructions !== undefined) result.instructions = s.instructions;
  return result;
};

/** `logging/setLevel` (legacy): the minimum level for this connection's log messages. */
export const setLevelHandler: RequestHandler = (params, ctx) => {
  // A client asked for logging, so this server is now exercising it (SEP-2577).
  warnDeprecated('logging', LOGGING_DEPRECATED);
  if (!isLogLevel(params.level)) {
    throw WireError.invalidParams(`Unknown log level: ${JSON.stringify(params.level)}`);
  }
  hostOf(ctx).legacyLogLevel = params.level;
  return {};
};
