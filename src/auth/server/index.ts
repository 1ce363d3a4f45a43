// The resource-server side of mcpkit's auth layer, listed by name. Runs on Node, Bun, Deno and workers.
export { bearerAuth, bearerChallenge, resourceMetadataUrl } from './bearer-auth.js';
export type {
  BearerAuth,
  BearerAuthOptions,
  BearerDecision,
  BearerRequest,
  NodeRequestLike,
  NodeResponseLike,
  ResourceMetadataDocument,
} from './bearer-auth.js';
export { InvalidTokenError, authInfoOf } from './auth-info.js';
export type { AuthInfo, Principal, PrincipalKind, TokenVerifier } from './auth-info.js';
export { principalKey, principalOf } from '../../protocol/principal.js';
export { DpopProofChecker } from './dpop-proof.js';
export type { DpopFailure, DpopOptions, DpopRequest } from './dpop-proof.js';
export { jwtVerifier } from './jwt-verifier.js';
export type { JwtVerifierOptions } from './jwt-verifier.js';
export { introspectionVerifier } from './introspection-verifier.js';
export type { IntrospectionVerifierOptions } from './introspection-verifier.js';
