/**
 * The `auth/*` client scenarios of the conformance suite: each gets an {@link OAuthClient}
 * configured from the scenario's name and `MCP_CONFORMANCE_CONTEXT`, whose fetch the HTTP
 * transport uses. The mocks run on http://localhost, so loopback is allowed (the default
 * for a loopback MCP server); their /authorize redirects at once, so the headless
 * interaction follows the redirect itself. Once authorized: `tools/list`, then `test-tool`.
 */
import { findAuthError } from '../auth/errors.js';
import { crossAppAccess } from '../auth/client/cross-app-access.js';
import { headlessInteraction } from '../auth/client/interaction.js';
import { OAuthClient } from '../auth/client/oauth-client.js';
import { workloadIdentity } from '../auth/client/workload-identity.js';
import type { OAuthClientOptions } from '../auth/client/oauth-client.js';
import type { PreRegisteredClient } from '../auth/client/registration.js';
import type { Client } from '../client/client.js';

/** The Client ID Metadata Document URL the suite expects (auth/basic-cimd). */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URI = 'http://localhost:3000/callback';

/** What `MCP_CONFORMANCE_CONTEXT` may hold. */
interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
  /** auth/wif-jwt-bearer: the workload's platform-issued JWT (SEP-1933). */
  valid_jwt?: string;
}

function readContext(): ConformanceContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  return typeof parsed === 'object' && parsed !== null ? (parsed as ConformanceContext) : {};
}

function log(message: string): void {
  process.stderr.write(`[conformance-client] ${message}\n`);
}

/** The OAuth client options for one scenario at `url`. */
export function oauthOptionsFor(
  name: string,
  url: string,
  ctx: ConformanceContext = readContext(),
): OAuthClientOptions {
  const options: OAuthClientOptions = {
    serverUrl: url,
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    clientMetadata: { client_name: 'mcpkit-conformance-client' },
  };
  if (ctx.client_id !== undefined) {
    const pre: PreRegisteredClient = { clientId: ctx.client_id };
    if (ctx.client_secret !== undefined) pre.clientSecret = ctx.client_secret;
    if (ctx.private_key_pem !== undefined) {
      pre.privateKey = { pem: ctx.private_key_pem, alg: ctx.signing_algorithm ?? 'ES256' };
    }
    options.preRegistered = pre;
  }
  if (ctx.valid_jwt !== undefined) {
    options.grant = { type: 'jwt_bearer', assertion: workloadIdentity(ctx.valid_jwt) };
  } else if (
    ctx.idp_token_endpoint !== undefined &&
    ctx.idp_id_token !== undefined &&
    ctx.idp_client_id !== undefined
  ) {
    const xaa = {
      idpTokenEndpoint: ctx.idp_token_endpoint,
      idToken: ctx.idp_id_token,
      idpClientId: ctx.idp_client_id,
      // The suite's authorization server predates authorization_grant_profiles_supported.
      requireAdvertisedProfile: false,
      ...(ctx.idp_issuer !== undefined ? { idpIssuer: ctx.idp_issuer } : {}),
    };
    options.grant = { type: 'jwt_bearer', assertion: crossAppAccess(xaa) };
  } else if (name.startsWith('auth/client-credentials')) {
    options.grant = 'client_credentials';
  } else {
    options.interaction = headlessInteraction({ redirectUri: REDIRECT_URI });
  }
  return options;
}

/** The scenario for an `auth/*` name: connect through OAuth, list the tools, call `test-tool`. */
export function authScenario(name: string): {
  fetchFor(url: string): typeof fetch;
  run(client: Client): Promise<void>;
} {
  let oauth: OAuthClient | undefined;
  return {
    fetchFor(url) {
      const o = (oauth = new OAuthClient(oauthOptionsFor(name, url)));
      // The transport wraps our errors; say what the authorization layer refused.
      return (async (input: RequestInfo | URL, init?: RequestInit) => {
        try {
          return await o.fetch(input, init);
        } catch (e) {
          const auth = findAuthError(e);
          if (auth) log(`authorization failed (${auth.code}): ${auth.message}`);
          throw e;
        }
      }) as typeof fetch;
    },
    async run(client) {
      const { tools } = await client.listTools();
      log(
        `${tools.length} tool(s); authorized with ${oauth?.issuer ?? '-'} (scope: ${oauth?.grantedScope ?? 'none'})`,
      );
      const result = await client.callTool({ name: 'test-tool', arguments: {} });
      log(`test-tool → ${JSON.stringify(result.content)}`);
      if (result.isError === true) throw new Error('test-tool answered isError');
    },
  };
}
