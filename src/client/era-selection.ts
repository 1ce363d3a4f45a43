/**
 * Picks the era and protocol version for a new connection: the legacy `initialize`
 * handshake, the modern `server/discover`, or (`auto`) a short discover probe that falls
 * back to `initialize` on anything but a modern answer (spec: stdio, Backward Compatibility).
 */
import { ErrorCode, LocalError, WireError } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/meta-keys.js';
import { eraOf } from '../protocol/versions.js';
import type { Session } from '../session/session.js';
import { clientEraOf } from './client-era.js';
import type { ClientEra } from './client-era.js';
import type { EraPreference } from './types.js';
import { isObject } from '../jsonrpc/is-object.js';

export const DEFAULT_PROBE_TIMEOUT_MS = 3000;

/** How many times a modern server may answer "unsupported version" before we give up. */
const MAX_VERSION_RETRIES = 3;

export interface EraSelectionOptions {
  preference: EraPreference;
  probeTimeoutMs: number;
  timeoutMs: number;
}

/** Newest version both sides speak, or undefined. Unknown strings are ignored. */
export function newestMutual(theirs: readonly unknown[], ours: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const v of theirs) {
    if (typeof v === 'string' && ours.includes(v) && (best === undefined || v > best)) best = v;
  }
  return best;
}

function isDiscoverResult(r: Record<string, unknown>): boolean {
  return Array.isArray(r.supportedVersions) && isObject(r.capabilities);
}

/** The `supported` list of an UnsupportedProtocolVersion error, if that is what `e` is. */
function supportedFrom(e: unknown): unknown[] | undefined {
  if (!(e instanceof WireError) || e.code !== ErrorCode.UnsupportedProtocolVersion) return undefined;
  const data = e.data;
  return isObject(data) && Array.isArray(data.supported) ? data.supported : undefined;
}

/** Errors after which no fallback can help: the connection itself is gone. */
function isFatal(e: unknown): boolean {
  return e instanceof LocalError && (e.code === 'ConnectionClosed' || e.code === 'NotConnected');
}

function mismatch(ours: readonly string[], theirs: readonly unknown[]): LocalError {
  return new LocalError(
    'VersionMismatch',
    `The server speaks ${theirs.map(String).join(', ') || 'no version'} and this client speaks ${ours.join(', ')}; there is no version in common`,
  );
}

/**
 * Runs the opening exchange for `preference` and leaves the session ready: legacy
 * initialized, or modern with a pinned version and the discover result applied. Returns
 * the client's strategy for the era chosen.
 */
export async function selectEra(session: Session, options: EraSelectionOptions): Promise<ClientEra> {
  await openSession(session, options);
  return clientEraOf(session.era ?? 'legacy');
}

async function openSession(session: Session, options: EraSelectionOptions): Promise<void> {
  const ours = session.versions;
  const modern = ours.filter((v) => eraOf(v) === 'modern');
  const legacy = ours.filter((v) => eraOf(v) === 'legacy');
  const timeoutMs = options.timeoutMs;
  if (options.preference === 'legacy' || (options.preference === 'auto' && modern.length === 0)) {
    if (legacy.length === 0)
      throw new LocalError('VersionMismatch', 'era "legacy" needs at least one legacy protocol version');
    await session.initialize({ timeoutMs });
    return;
  }
  if (modern.length === 0)
    throw new LocalError('VersionMismatch', 'era "modern" needs at least one modern protocol version');
  const newest = newestMutual(modern, modern)!;
  if (options.preference === 'modern' || legacy.length === 0) {
    await discoverModern(session, newest, timeoutMs);
    return;
  }
  // auto: probe with the newest modern version and a short timeout.
  const outcome = await probe(session, newest, options.probeTimeoutMs);
  if (outcome.kind === 'legacy') {
    await session.initialize({ timeoutMs });
    return;
  }
  const theirs =
    outcome.kind === 'result' ? (outcome.result.supportedVersions as unknown[]) : outcome.supported;
  const chosen = newestMutual(theirs, ours);
  if (chosen === undefined) {
    // An empty list says nothing about the server; the handshake is the last resort.
    if (theirs.length === 0) {
      await session.initialize({ timeoutMs });
      return;
    }
    throw mismatch(ours, theirs);
  }
  if (eraOf(chosen) === 'legacy') {
    await session.initialize({ protocolVersion: chosen, timeoutMs });
    return;
  }
  if (outcome.kind === 'result' && chosen === newest) {
    session.useModern(chosen);
    session.applyDiscover(outcome.result);
    return;
  }
  await discoverModern(session, chosen, timeoutMs);
}

type ProbeOutcome =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'unsupported'; supported: unknown[] }
  | { kind: 'legacy' };

/**
 * Sends `server/discover` with modern `_meta` built by hand, so that nothing in the
 * session is pinned until the answer says which era the server speaks. A timeout leaves
 * a cancelled request behind; a late answer to its id is ignored by the session.
 */
async function probe(session: Session, version: string, timeoutMs: number): Promise<ProbeOutcome> {
  const _meta = {
    [MetaKey.ProtocolVersion]: version,
    [MetaKey.ClientCapabilities]: session.capabilities,
    [MetaKey.ClientInfo]: session.info,
  };
  try {
    const result = await session.request(
      'server/discover',
      { _meta },
      { timeoutMs, maxTotalTimeoutMs: timeoutMs },
    );
    return isDiscoverResult(result) ? { kind: 'result', result } : { kind: 'legacy' };
  } catch (e) {
    const supported = supportedFrom(e);
    if (supported) return { kind: 'unsupported', supported };
    if (isFatal(e)) throw e;
    // Any other error code, a timeout, a malformed answer: a legacy server.
    return { kind: 'legacy' };
  }
}

/**
 * Pins `version`, calls `server/discover`, and follows UnsupportedProtocolVersion answers
 * to a modern version both sides speak: one the server lists but refused is retried once,
 * then the next one in common is tried, rather than failing with "no version in common". Once a modern version is pinned the session
 * cannot go back to `initialize`, so a server naming only legacy versions here is a
 * version mismatch.
 */
async function discoverModern(session: Session, version: string, timeoutMs: number): Promise<void> {
  const ours = session.versions;
  const modern = ours.filter((v) => eraOf(v) === 'modern');
  let current = version;
  /** How often each version was refused with UnsupportedProtocolVersion. */
  const rejected = new Map<string, number>();
  for (let attempt = 0; ; attempt++) {
    session.useModern(current);
    let result: Record<string, unknown>;
    try {
      result = await session.request('server/discover', undefined, { timeoutMs });
    } catch (e) {
      const supported = supportedFrom(e);
      if (!supported) {
        if (e instanceof WireError) {
          throw new LocalError(
            'VersionMismatch',
            `The server answered server/discover with error ${e.code} (${e.message}); it does not seem to speak protocol ${current}. Try era "auto" or "legacy".`,
            { cause: e },
          );
        }
        throw e;
      }
      // A version the server lists yet rejected is tried once more (a server mid-rollout
      // behind a load balancer answers this way); after that, the next one both speak.
      rejected.set(current, (rejected.get(current) ?? 0) + 1);
      const next = newestMutual(
        supported.filter((v) => (rejected.get(v as string) ?? 0) < 2),
        modern,
      );
      if (next === undefined || attempt >= MAX_VERSION_RETRIES) throw mismatch(ours, supported);
      current = next;
      continue;
    }
    if (!isDiscoverResult(result)) {
      throw new LocalError(
        'InvalidResult',
        'The server answered server/discover without supportedVersions and capabilities',
      );
    }
    const supported = result.supportedVersions as unknown[];
    if (!supported.includes(current)) {
      const next = newestMutual(supported, modern);
      if (next === undefined || attempt >= MAX_VERSION_RETRIES) throw mismatch(ours, supported);
      current = next;
      continue;
    }
    session.applyDiscover(result);
    return;
  }
}
