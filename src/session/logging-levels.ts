/** Syslog severities, as MCP orders them. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

const rank: ReadonlyMap<string, number> = new Map(LOG_LEVELS.map((l, i) => [l, i]));

/** Whether `level` is a valid log level name. */
export function isLogLevel(level: unknown): level is LogLevel {
  return typeof level === 'string' && rank.has(level);
}

/** Whether a message at `level` passes a minimum of `min`. */
export function passesLevel(level: LogLevel, min: LogLevel): boolean {
  return (rank.get(level) ?? 0) >= (rank.get(min) ?? 0);
}
