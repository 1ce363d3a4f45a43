// The OAuth 2.1 client of mcpkit, listed by name. Browser-safe.
export { OAuthClient } from './oauth-client.js';
export type { OAuthClientOptions, OAuthGrant } from './oauth-client.js';
export { authFetch } from './auth-fetch.js';
export { authRequester } from './auth-requester.js';
export type { TokenSource } from './auth-fetch.js';
export { callbackFromUrl, checkRedirectUri, headlessInteraction, isRedirectTo } from './interaction.js';
export type { AuthorizationCallback, AuthorizationInteraction, InteractionContext } from './interaction.js';
export { ENTERPRISE_MANAGED_AUTHORIZATION, crossAppAccess } from './cross-app-access.js';
export { workloadIdentity } from './workload-identity.js';
export { DPOP_ALG, DpopProver } from './dpop.js';
export type { WorkloadTokenSource } from './workload-identity.js';
export type { AssertionContext, AssertionProvider, CrossAppAccessOptions } from './cross-app-access.js';
export { MemoryCredentialStore } from './store.js';
export type { CredentialStore, IssuerRecord, StoredClient, StoredTokens } from './store.js';
export type { PreRegisteredClient } from './registration.js';
export type { ClientKey, TokenEndpointAuthMethod } from './client-auth.js';
export {
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  discover,
  protectedResourceMetadataUrls,
  resourceMatches,
} from './discovery.js';
export type { Discovery, DiscoveryOptions, ProtectedResourceMetadata } from './discovery.js';
export { checkAuthorizationUrl, checkFetchUrl, hostKind } from './network-policy.js';
export type { AddressKind, NetworkPolicy } from './network-policy.js';
export { GuardedFetch } from './guarded-fetch.js';
export type { GuardedFetchOptions } from './guarded-fetch.js';
export { bearerChallengeOf, parseWwwAuthenticate } from './www-authenticate.js';
export type { AuthChallenge, BearerChallenge } from './www-authenticate.js';
