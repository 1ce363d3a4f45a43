/** Every MCP revision mcpkit speaks, oldest first. */
export const ALL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

export type ProtocolVersion = (typeof ALL_VERSIONS)[number];

/** Revisions that open a session with `initialize`. */
export const LEGACY_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];

/** Stateless revisions that carry version and capabilities in every request's `_meta`. */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
export type ModernVersion = (typeof MODERN_VERSIONS)[number];

export const LATEST_LEGACY_VERSION: LegacyVersion = '2025-11-25';
export const LATEST_MODERN_VERSION: ModernVersion = '2026-07-28';
export const LATEST_VERSION: ProtocolVersion = LATEST_MODERN_VERSION;

/** The two protocol eras: `legacy` (initialize handshake) and `modern` (stateless). */
export type Era = 'legacy' | 'modern';

const legacySet: ReadonlySet<string> = new Set(LEGACY_VERSIONS);
const modernSet: ReadonlySet<string> = new Set(MODERN_VERSIONS);

/** Whether mcpkit speaks this version string. */
export function isKnownVersion(v: unknown): v is ProtocolVersion {
  return typeof v === 'string' && (legacySet.has(v) || modernSet.has(v));
}

export function isLegacyVersion(v: unknown): v is LegacyVersion {
  return typeof v === 'string' && legacySet.has(v);
}

export function isModernVersion(v: unknown): v is ModernVersion {
  return typeof v === 'string' && modernSet.has(v);
}

/**
 * The era a version belongs to. Unknown versions that sort after the newest legacy revision
 * are taken as modern: dates compare as strings, and every revision after 2025-11-25 is stateless.
 */
export function eraOf(version: string): Era {
  if (legacySet.has(version)) return 'legacy';
  if (modernSet.has(version)) return 'modern';
  return version > LATEST_LEGACY_VERSION ? 'modern' : 'legacy';
}

/** JSON-RPC batches exist only in 2025-03-26. */
export function allowsBatch(version: string | undefined): boolean {
  return version === '2025-03-26';
}

/** Revision `a` is the same as or newer than `b`. */
export function isAtLeast(a: string, b: ProtocolVersion): boolean {
  return a >= b;
}
