/**
 * `mcpkit/auth` as Node resolves it (the `node` export condition): the same API, but the
 * OAuth client's requests are safe from server-side request forgery without any option.
 * Host names are resolved, a name that points at a loopback, private or link-local address
 * is refused like the address itself, and connections go only to the addresses checked
 * (checked again when the connection opens, so DNS rebinding cannot slip through).
 * Browsers cannot resolve names: the default entry checks the URL's host only.
 */
import { GuardedFetch as PortableGuardedFetch } from './client/guarded-fetch.js';
import type { GuardedFetchOptions } from './client/guarded-fetch.js';
import type { NetworkPolicy } from './client/network-policy.js';
import { OAuthClient as PortableOAuthClient } from './client/oauth-client.js';
import { nodeGuardOptions } from './node-network.js';

// Everything else is the portable entry's, unchanged (entry-points.test.ts checks that both
// entries list the same names).
export { AuthError, findAuthError } from './errors.js';
export type { AuthErrorCode } from './errors.js';
export {
  DPOP_ALG,
  ENTERPRISE_MANAGED_AUTHORIZATION,
  DpopProver,
  MemoryCredentialStore,
  bearerChallengeOf,
  callbackFromUrl,
  authFetch,
  authRequester,
  crossAppAccess,
  discover,
  headlessInteraction,
  parseWwwAuthenticate,
  workloadIdentity,
} from './client/index.js';
export type {
  AssertionContext,
  AssertionProvider,
  AuthChallenge,
  AuthorizationCallback,
  AuthorizationInteraction,
  BearerChallenge,
  ClientKey,
  CredentialStore,
  CrossAppAccessOptions,
  Discovery,
  DiscoveryOptions,
  GuardedFetchOptions,
  InteractionContext,
  IssuerRecord,
  NetworkPolicy,
  OAuthClientOptions,
  OAuthGrant,
  PreRegisteredClient,
  ProtectedResourceMetadata,
  StoredClient,
  StoredTokens,
  TokenEndpointAuthMethod,
  TokenSource,
  WorkloadTokenSource,
} from './client/index.js';
export {
  DpopProofChecker,
  InvalidTokenError,
  authInfoOf,
  bearerChallenge,
  bearerAuth,
  introspectionVerifier,
  jwtVerifier,
  principalKey,
  principalOf,
  resourceMetadataUrl,
} from './server/index.js';
export type {
  AuthInfo,
  BearerAuth,
  BearerAuthOptions,
  BearerDecision,
  BearerRequest,
  DpopFailure,
  DpopOptions,
  DpopRequest,
  IntrospectionVerifierOptions,
  JwtVerifierOptions,
  NodeRequestLike,
  NodeResponseLike,
  Principal,
  PrincipalKind,
  ResourceMetadataDocument,
  TokenVerifier,
} from './server/index.js';

/**
 * The portable `GuardedFetch` (the default export condition's) with Node's checked network:
 * names resolved (the system resolver unless `policy.resolveHost` is set), every address
 * checked, connections only to checked addresses. A `fetch` given here makes its own
 * connections: names are checked first, but that fetch resolves them again.
 *
 * @example
 * ```ts
 * import { GuardedFetch } from 'mcpkit/auth';
 * const guarded = new GuardedFetch({ policy: {} });
 * await guarded.fetch(new URL('https://auth.example.com/.well-known/oauth-authorization-server'), {
 *   what: 'authorization server metadata',
 * });
 * ```
 */
export class GuardedFetch extends PortableGuardedFetch {
  constructor(options: GuardedFetchOptions) {
    super(nodeGuardOptions(options));
  }
}

/**
 * The portable `OAuthClient` (the default export condition's) whose discovery,
 * registration and token requests go through Node's checked network (see
 * {@link GuardedFetch}): a server cannot point it at `metadata.internal` or a name that
 * resolves to 169.254.169.254. `network` widens this, as everywhere.
 *
 * @example
 * ```ts
 * import { OAuthClient } from 'mcpkit/auth';
 * const oauth = new OAuthClient({ serverUrl: 'https://mcp.example.com/mcp', interaction });
 * ```
 */
export class OAuthClient extends PortableOAuthClient {
  protected override guardedFetch(
    policy: NetworkPolicy,
    base: typeof fetch | undefined,
  ): PortableGuardedFetch {
    return new GuardedFetch(base ? { policy, fetch: base } : { policy });
  }
}
