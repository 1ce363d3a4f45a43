import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { argumentsError } from '../parse-error.js';
// The Node entry's OAuthClient and GuardedFetch: names resolved, and no connection to a
// loopback, private or link-local address unless the server itself is on loopback.
import { GuardedFetch, OAuthClient, discover, findAuthError } from '../../auth/index-node.js';
import type { NetworkPolicy } from '../../auth/index-node.js';
import { FileCredentialStore, loopbackInteraction } from '../../auth/node.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { rootCause } from '../connection.js';

/**
 * What the OAuth requests may reach: the library's default (public addresses, loopback when
 * the MCP server is on loopback), or, with MCPKIT_ALLOW_PRIVATE_NETWORK=1, loopback and
 * private networks too (an authorization server inside a company network).
 */
function oauthNetwork(): NetworkPolicy | undefined {
  return process.env.MCPKIT_ALLOW_PRIVATE_NETWORK === '1'
    ? { allowLoopback: true, allowPrivateNetwork: true }
    : undefined;
}

/** A failure's message, with the way out when the network policy refused an address. */
function failure(e: unknown): string {
  const hint =
    findAuthError(e)?.code === 'UnsafeUrl'
      ? ' (if that server is yours, set MCPKIT_ALLOW_PRIVATE_NETWORK=1 to allow private and loopback addresses)'
      : '';
  return `${rootCause(e)}${hint}`;
}

/** Where the CLI keeps OAuth credentials, per authorization server (issuer). */
export function credentialsPath(): string {
  const base = process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config');
  return process.env.MCPKIT_CREDENTIALS ?? join(base, 'mcpkit', 'credentials.json');
}

export const loginHelp = `Usage: mcpkit login --url URL [--port N]

Signs in to a protected MCP server with OAuth 2.1: discovers its authorization server,
registers if needed, opens the authorization page in your browser (never through a shell),
catches the redirect on a loopback port, and stores the tokens per issuer in
${'$'}XDG_CONFIG_HOME/mcpkit/credentials.json (mode 0600; MCPKIT_CREDENTIALS overrides).
Later commands with --url use them, refreshing as needed.

Options:
  --url URL    the MCP server
  --port N     the loopback port for the redirect (default: any free one)

The OAuth requests never reach a loopback, private or link-local address (checked after
resolving names, and again when connecting) unless the server itself is on loopback; set
MCPKIT_ALLOW_PRIVATE_NETWORK=1 when your authorization server is on such a network.

Examples:
  mcpkit login --url https://mcp.example.com/mcp
  mcpkit tools --url https://mcp.example.com/mcp`;

export const logoutHelp = `Usage: mcpkit logout --url URL

Forgets the tokens stored for the server's authorization server.

Examples:
  mcpkit logout --url https://mcp.example.com/mcp`;

function parse(
  argv: string[],
  usage: string,
  withPort: boolean,
): { url: string; port: number; help: boolean } {
  const options = {
    url: { type: 'string' },
    ...(withPort ? { port: { type: 'string' as const } } : {}),
    help: { type: 'boolean', short: 'h' },
  } as const;
  // The command's name for the message: "mcpkit login ..." says it first.
  const command = /^mcpkit (\S+)/.exec(usage)?.[1] ?? 'login';
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options,
      strict: true,
    }));
  } catch (e) {
    throw argumentsError(e, command, options);
  }
  const v = values as { url?: string; port?: string; help?: boolean };
  if (v.help) return { url: '', port: 0, help: true };
  if (!v.url) throw new CliFailure(`--url is required. Usage: ${usage}`, ExitCode.Usage);
  try {
    const u = new URL(v.url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error();
  } catch {
    throw new CliFailure(`--url must be an http or https URL, not "${v.url}"`, ExitCode.Usage);
  }
  const port = v.port === undefined ? 0 : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliFailure('--port must be a port number', ExitCode.Usage);
  return { url: v.url, port, help: false };
}

export async function login(argv: string[]): Promise<number> {
  const { url, port, help } = parse(argv, 'mcpkit login --url URL', true);
  if (help) {
    console.log(loginHelp);
    return ExitCode.Ok;
  }
  const interaction = await loopbackInteraction({ port });
  try {
    const network = oauthNetwork();
    const oauth = new OAuthClient({
      serverUrl: url,
      store: new FileCredentialStore(credentialsPath()),
      interaction,
      ...(network ? { network } : {}),
    });
    await oauth.authorize();
    console.log(
      `Signed in to ${url} (authorization server ${oauth.issuer ?? 'unknown'}${oauth.grantedScope ? `, scope "${oauth.grantedScope}"` : ''}).`,
    );
    return ExitCode.Ok;
  } catch (e) {
    throw new CliFailure(`Sign-in failed: ${failure(e)}`, ExitCode.Connection);
  } finally {
    await interaction.close();
  }
}

export async function logout(argv: string[]): Promise<number> {
  const { url, help } = parse(argv, 'mcpkit logout --url URL', false);
  if (help) {
    console.log(logoutHelp);
    return ExitCode.Ok;
  }
  const target = new URL(url);
  const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(target.hostname);
  try {
    // The store is keyed by issuer: find this server's authorization server, then forget it.
    const found = await discover(
      new GuardedFetch({ policy: { allowLoopback: loopback, ...oauthNetwork() } }),
      target,
      undefined,
    );
    await new FileCredentialStore(credentialsPath()).delete(found.as.issuer);
  } catch (e) {
    throw new CliFailure(`Sign-out failed: ${failure(e)}`, ExitCode.Connection);
  }
  console.log(`Signed out of ${url}.`);
  return ExitCode.Ok;
}

/**
 * The authorization of `--url` targets (the transport's `auth`): stored tokens are sent
 * (and refreshed), and a server that needs a sign-in points the user at `mcpkit login`
 * instead of opening a browser from an ordinary command.
 */
export function storedCredentials(url: string): OAuthClient {
  const network = oauthNetwork();
  const oauth = new OAuthClient({
    serverUrl: url,
    store: new FileCredentialStore(credentialsPath()),
    ...(network ? { network } : {}),
    interaction: {
      redirectUri: 'http://127.0.0.1/callback',
      openAuthorizationUrl: () =>
        Promise.reject(
          new CliFailure(`The server needs a sign-in: run mcpkit login --url ${url}`, ExitCode.Connection),
        ),
    },
  });
  return oauth;
}
