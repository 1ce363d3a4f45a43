/** The string codes of {@link LocalError}. */
export type LocalErrorCode =
  | 'NotConnected'
  | 'ConnectionClosed'
  | 'RequestTimeout'
  | 'Cancelled'
  | 'CapabilityNotSupported'
  | 'VersionMismatch'
  | 'InvalidMessage'
  | 'InvalidResult'
  | 'MessageTooLarge'
  | 'SpawnFailed'
  | 'AlreadyConnected'
  | 'TooManyRounds'
  | 'HandlerMissing'
  // The OAuth layer's codes (its AuthError is a LocalError).
  | 'InvalidConfiguration'
  | 'UnsafeUrl'
  | 'DiscoveryFailed'
  | 'ResourceMismatch'
  | 'IssuerMismatch'
  | 'PkceNotSupported'
  | 'RegistrationFailed'
  | 'AuthorizationFailed'
  | 'TokenRequestFailed';

/**
 * An error raised inside mcpkit that never crosses the wire: a timeout, a closed
 * connection, a capability the peer lacks. Its `code` is a string so it can never be
 * mistaken for a peer's numeric JSON-RPC error.
 *
 * @example
 * ```ts
 * try { await client.callTool({ name: 'slow' }, { timeoutMs: 1000 }); }
 * catch (e) { if (e instanceof LocalError && e.code === 'RequestTimeout') retryLater(); }
 * ```
 */
export class LocalError extends Error {
  override readonly name: string = 'LocalError';
  readonly code: LocalErrorCode;

  constructor(code: LocalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
