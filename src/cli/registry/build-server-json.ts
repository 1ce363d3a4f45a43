/**
 * Builds a registry `server.json` from what a project already says about its server: the
 * npm package's package.json (name, version, mcpName, description, repository, homepage),
 * the server's own `serverInfo` when the command can start or reach it (title, description,
 * icons, websiteUrl), and the command line (remote URL, environment variables, arguments).
 */
import { SERVER_SCHEMA_URL } from '../../host/registry/validate-server-json.js';

/** What the running server said about itself (its `serverInfo`). */
export interface ServerIdentity {
  name?: string;
  version?: string;
  title?: string;
  description?: string;
  icons?: unknown[];
  websiteUrl?: string;
}

export interface ServerJsonInputs {
  /** The registry name (reverse-DNS, `io.github.user/server`); default package.json's mcpName. */
  name?: string;
  packageJson?: Record<string, unknown>;
  server?: ServerIdentity;
  /** Leave the npm package out (a remote-only server). */
  remoteOnly?: boolean;
  remotes?: { type: 'streamable-http' | 'sse'; url: string }[];
  env?: { name: string; description?: string; secret: boolean }[];
  args?: string[];
  description?: string;
  title?: string;
  version?: string;
}

/** `git+https://github.com/a/b.git` or `github:a/b` → `{ url: https://github.com/a/b, source: github }`. */
export function repositoryOf(repo: unknown): { url: string; source: string; subfolder?: string } | undefined {
  const r =
    typeof repo === 'string' ? { url: repo } : (repo as { url?: unknown; directory?: unknown } | undefined);
  if (typeof r?.url !== 'string') return undefined;
  let url = r.url.trim();
  const short = /^(github|gitlab):([^/]+\/[^/]+)$/.exec(url) ?? /^([^/:]+\/[^/:]+)$/.exec(url);
  if (short) url = `https://${short[1] === 'gitlab' ? 'gitlab.com' : 'github.com'}/${short[2] ?? short[1]}`;
  url = url
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^ssh:\/\/git@/, 'https://');
  url = url.replace(/\.git$/, '');
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const source = host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : host;
  return {
    url,
    source,
    ...(typeof r.directory === 'string' && r.directory !== '' ? { subfolder: r.directory } : {}),
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The document, with members in the order the registry's examples use. */
export function buildServerJson(input: ServerJsonInputs): Record<string, unknown> {
  const pkg = input.packageJson ?? {};
  const srv = input.server ?? {};
  const name = input.name ?? str(pkg.mcpName);
  const version = input.version ?? str(pkg.version) ?? str(srv.version);
  const description = input.description ?? str(pkg.description) ?? str(srv.description);
  const title = input.title ?? str(srv.title);
  const websiteUrl = str(srv.websiteUrl) ?? str(pkg.homepage);
  const repository = repositoryOf(pkg.repository);
  const doc: Record<string, unknown> = {
    $schema: SERVER_SCHEMA_URL,
    name,
    description,
    ...(title !== undefined ? { title } : {}),
    ...(websiteUrl !== undefined ? { websiteUrl } : {}),
    ...(repository !== undefined ? { repository } : {}),
    version,
    ...(srv.icons !== undefined && srv.icons.length > 0 ? { icons: srv.icons } : {}),
  };
  if (!input.remoteOnly && str(pkg.name) !== undefined) {
    const env = input.env ?? [];
    const args = input.args ?? [];
    doc.packages = [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: pkg.name,
        version: str(pkg.version),
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        ...(args.length > 0
          ? { packageArguments: args.map((value) => ({ type: 'positional', value })) }
          : {}),
        ...(env.length > 0
          ? {
              environmentVariables: env.map((e) => ({
                name: e.name,
                ...(e.description !== undefined ? { description: e.description } : {}),
                isRequired: true,
                ...(e.secret ? { isSecret: true } : {}),
              })),
            }
          : {}),
      },
    ];
  }
  if (input.remotes !== undefined && input.remotes.length > 0) doc.remotes = input.remotes;
  // Members left undefined (no name, no version) are dropped so the schema names them as missing.
  for (const k of Object.keys(doc)) if (doc[k] === undefined) delete doc[k];
  return doc;
}
