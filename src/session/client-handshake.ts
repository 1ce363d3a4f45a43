import { LocalError } from '../jsonrpc/index.js';
import type { Params } from '../jsonrpc/index.js';
import { LATEST_LEGACY_VERSION, isLegacyVersion } from '../protocol/versions.js';
import type { Era } from '../protocol/versions.js';
import { acceptsServerVersion } from './lifecycle.js';
import type { RequestOptions } from './options.js';
import type { PeerInfo } from './request-context.js';
import { isObject } from '../jsonrpc/is-object.js';

/** The client session fields the handshake reads and fills in. */
interface HandshakeHost {
  readonly versions: readonly string[];
  readonly capabilities: Record<string, unknown>;
  readonly info: object;
  protocolVersion: string | undefined;
  era: Era | undefined;
  peerCapabilities: Record<string, unknown> | undefined;
  peerInfo: PeerInfo | undefined;
  peerInstructions: string | undefined;
  request(method: string, params?: Params, options?: RequestOptions): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Sends `initialize` offering our newest legacy version (or the one asked for), checks the
 * server's answer, and records what it said. A version we do not speak closes the
 * connection with a `VersionMismatch` error.
 */
export async function runInitialize(
  s: HandshakeHost,
  options: { protocolVersion?: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<Record<string, unknown>> {
  const offered =
    options.protocolVersion ?? [...s.versions].reverse().find(isLegacyVersion) ?? LATEST_LEGACY_VERSION;
  const request: RequestOptions = {};
  if (options.timeoutMs !== undefined) request.timeoutMs = options.timeoutMs;
  if (options.signal !== undefined) request.signal = options.signal;
  const result = await s.request(
    'initialize',
    { protocolVersion: offered, capabilities: s.capabilities, clientInfo: s.info },
    request,
  );
  const answered = result.protocolVersion;
  if (!acceptsServerVersion(answered, s.versions)) {
    await s.close();
    throw new LocalError(
      'VersionMismatch',
      `The server chose protocol version ${JSON.stringify(answered)}, which this client does not speak (it speaks ${s.versions.filter(isLegacyVersion).join(', ')})`,
    );
  }
  s.protocolVersion = answered as string;
  s.era = 'legacy';
  s.peerCapabilities = isObject(result.capabilities) ? result.capabilities : {};
  s.peerInfo = isObject(result.serverInfo) ? (result.serverInfo as PeerInfo) : undefined;
  s.peerInstructions = typeof result.instructions === 'string' ? result.instructions : undefined;
  return result;
}
