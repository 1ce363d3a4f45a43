/**
 * What a person is shown before a local server starts for the first time: the exact
 * command line, untruncated, its working directory and environment, and warnings for
 * patterns that deserve a second look.
 */
import type { StdioServerConfig } from '../config/config-types.js';
import { canonicalJson, sha256 } from './pins.js';
import type { CommandConsentRequest } from '../ui/ui.js';

/** Quotes one argument the way a POSIX shell would need it, so what is shown is exact. */
export function shellQuote(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

const SECRET_NAME = /(key|token|secret|passw|credential|auth|cookie|session)/i;
const DANGEROUS_ENV =
  /^(NODE_OPTIONS|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_.*|PYTHONSTARTUP|PYTHONPATH|BASH_ENV|ENV|PERL5OPT|RUBYOPT)$/;

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/(^|\s|\/)sudo(\s|$)/, 'runs with sudo (administrator rights)'],
  [/\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+/, 'deletes files (rm -rf)'],
  [
    /(^|\s|\/)(ba|z|da|fi|k)?sh\s+-c\b|(^|\s|\/)(cmd(\.exe)?\s+\/c|powershell(\.exe)?\s+-c(ommand)?)\b/i,
    'runs a shell command string',
  ],
  [/\b(curl|wget|iwr|Invoke-WebRequest)\b/i, 'downloads or sends data over the network'],
  [
    /(\|\s*(ba|z)?sh\b)|&&|;\s*\S|\$\(|`/,
    'contains shell operators (they are passed literally: no shell runs them)',
  ],
  [
    /(~|\$HOME|\/home\/[^/\s]+|\/Users\/[^/\s]+)\/\.(ssh|aws|gnupg|config\/gcloud|kube|docker)\b|\bid_(rsa|ed25519)\b/,
    'touches keys or cloud credentials',
  ],
  [/(^|\s)\/(etc|usr|bin|sbin|boot|System|Library)(\/|\s|$)/, 'touches system directories'],
  [
    /(^|\s)(~|\$HOME)(\/)?(\s|$)|(^|\s)\/(home\/[^/\s]+|Users\/[^/\s]+|root)\/?(\s|$)/,
    'gets the whole home directory',
  ],
  [/(^|\s)\/(\s|$)/, 'gets the whole file system (/)'],
];

/**
 * The consent request for a stdio server: exact command line, cwd, env (secret-looking
 * values masked), and warnings (sudo, rm -rf, shells, downloads, sensitive paths,
 * environment variables that inject code such as NODE_OPTIONS or LD_PRELOAD). Every
 * MCP server runs with the host's own privileges; the UI should say so.
 *
 * @example
 * ```ts
 * const files = config.servers.files;
 * if (files?.transport === 'stdio') describeCommand(files).commandLine; // "npx -y @modelcontextprotocol/server-filesystem /home/me"
 * ```
 */
export function describeCommand(
  server: Pick<StdioServerConfig, 'name' | 'command' | 'args' | 'env' | 'cwd'>,
): CommandConsentRequest {
  const commandLine = [server.command, ...server.args].map(shellQuote).join(' ');
  // Also the words unquoted: `sh -c 'sudo rm -rf /'` hides `sudo` and `/` behind quotes.
  const words = [server.command, ...server.args].join(' ');
  const warnings: string[] = [];
  for (const [re, message] of PATTERNS) if (re.test(commandLine) || re.test(words)) warnings.push(message);
  const env = Object.entries(server.env).map(([name, value]) => {
    if (DANGEROUS_ENV.test(name)) warnings.push(`sets ${name}, which can inject code into the process`);
    return { name, value: SECRET_NAME.test(name) ? mask(value) : value };
  });
  return {
    server: server.name,
    commandLine,
    command: server.command,
    args: server.args,
    cwd: server.cwd,
    env,
    warnings,
  };
}

function mask(value: string): string {
  return value.length === 0 ? '(empty)' : `(hidden, ${value.length} characters)`;
}

/**
 * The key a consent is remembered by: a hash of everything that decides what runs
 * (command, arguments, cwd, environment). Change any of it and consent is asked again.
 */
export function consentKey(server: StdioServerConfig): Promise<string> {
  return sha256(
    canonicalJson({ command: server.command, args: server.args, cwd: server.cwd ?? null, env: server.env }),
  ).then((h) => `command:${h}`);
}
