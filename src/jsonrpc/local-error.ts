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
  /** A shared store (Redis) that the request needs cannot be reached. */
  | 'StoreUnavailable'
  /** The client answered a server's question (elicitation, sampling, roots) with an error: in `cause`. */
  | 'QuestionRefused'
  /** A skill was loaded without an approval bound to its current files (skills extension). */
  | 'SkillNotApproved'
  /** An optional peer package a feature needs (an LLM SDK, ioredis) is not installed. */
  | 'PackageMissing'
  /** A Server Card could not be fetched (HTTP status, network, not JSON). */
  | 'ServerCardUnavailable'
  /** A Server Card was fetched but is malformed; the message names the field. */
  | 'InvalidServerCard'
  | AuthErrorCode;

/** The OAuth layer's codes: its `AuthError` is a {@link LocalError} with one of these. */
export type AuthErrorCode =
  /** Options that cannot work (a bad redirect URI, no way to register, a bad interval). */
  | 'InvalidConfiguration'
  /** A URL was refused before anything was sent: its scheme, host or address is not allowed. */
  | 'UnsafeUrl'
  /** No usable protected resource or authorization server metadata was found. */
  | 'DiscoveryFailed'
  /** The protected resource metadata names another resource than the server we talk to. */
  | 'ResourceMismatch'
  /** An issuer did not match: metadata, an authorization response (RFC 9207), stored credentials. */
  | 'IssuerMismatch'
  /** The authorization server does not advertise PKCE with S256. */
  | 'PkceNotSupported'
  /** Client registration failed or is impossible. */
  | 'RegistrationFailed'
  /** The authorization response was an error, or its state did not match. */
  | 'AuthorizationFailed'
  /** A token endpoint refused the request or answered something unusable. */
  | 'TokenRequestFailed'
  /** Credentials could not be saved (a full disk, no permission); the previous file is kept. */
  | 'StoreFailed';

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
