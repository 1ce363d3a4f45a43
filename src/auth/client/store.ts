/**
 * Where the OAuth client keeps what it obtained. Everything is filed under the issuer of
 * the authorization server that issued it, and looked up only by that issuer, so a client
 * registration or a token is never presented to another authorization server.
 */

/** A client registration obtained through Dynamic Client Registration. */
export interface StoredClient {
  client_id: string;
  client_secret?: string;
  /** Epoch seconds; 0 or absent: does not expire. */
  client_secret_expires_at?: number;
  token_endpoint_auth_method?: string;
  redirect_uris?: string[];
}

/** The tokens for one resource. */
export interface StoredTokens {
  access_token: string;
  /** `DPoP` for a token bound to the client's DPoP key (RFC 9449); absent for Bearer. */
  token_type?: 'DPoP';
  refresh_token?: string;
  /** Epoch seconds, from `expires_in` at issuance. */
  expires_at?: number;
  /** The scope granted (or, when the server did not say, requested). */
  scope?: string;
  /** The scope the client asked for, kept for step-up unions. */
  requested_scope?: string;
}

/** Everything held for one authorization server. */
export interface IssuerRecord {
  /** The issuer identifier, exactly as in its metadata. */
  issuer: string;
  client?: StoredClient;
  /** Tokens by resource (the RFC 8707 `resource` value they were issued for). */
  tokens?: Record<string, StoredTokens>;
}

/**
 * A pluggable store of credentials, keyed by issuer. Implementations must keep records
 * confidential (refresh tokens and client secrets are in them).
 *
 * @example
 * ```ts
 * const store: CredentialStore = new MemoryCredentialStore();
 * const oauth = new OAuthClient({ serverUrl, store, interaction });
 * ```
 */
export interface CredentialStore {
  get(issuer: string): Promise<IssuerRecord | undefined>;
  set(issuer: string, record: IssuerRecord): Promise<void>;
  delete(issuer: string): Promise<void>;
}

/**
 * The default {@link CredentialStore}: in memory, gone with the process. Records are
 * copied in and out, so callers cannot change what is stored by accident.
 *
 * @example
 * ```ts
 * const store = new MemoryCredentialStore();
 * await store.get('https://auth.example.com'); // undefined
 * ```
 */
export class MemoryCredentialStore implements CredentialStore {
  private readonly records = new Map<string, IssuerRecord>();

  get(issuer: string): Promise<IssuerRecord | undefined> {
    const r = this.records.get(issuer);
    return Promise.resolve(r === undefined ? undefined : structuredClone(r));
  }

  set(issuer: string, record: IssuerRecord): Promise<void> {
    this.records.set(issuer, structuredClone({ ...record, issuer }));
    return Promise.resolve();
  }

  delete(issuer: string): Promise<void> {
    this.records.delete(issuer);
    return Promise.resolve();
  }
}
