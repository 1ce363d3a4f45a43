/**
 * Checks a `server.json` before it goes to the MCP Registry: the registry's JSON Schema
 * (2025-12-11, compiled with Ajv), then the rules the official registry adds on top that can
 * be checked offline (docs/versioning.md, reference/server-json/official-registry-
 * requirements.md, docs/package-types.md). Every issue names its field by JSON pointer.
 */
import { SERVER_SCHEMA_2025_12_11 } from './server-schema.js';

/** The schema URL a current `server.json` names. */
export const SERVER_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The only `_meta` key the official registry keeps from what a publisher sends. */
export const PUBLISHER_META_KEY = 'io.modelcontextprotocol.registry/publisher-provided';
/** The key the registry fills itself in its answers; a publisher may not send it. */
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

export interface ServerJsonIssue {
  /** The field, as a JSON pointer (`/packages/0/version`); `` for the whole document. */
  pointer: string;
  message: string;
  /** `schema`: the JSON Schema; `registry`: a rule of the official registry. */
  source: 'schema' | 'registry';
  severity: 'error' | 'warning';
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

let compiled: Promise<Validate> | undefined;

/** Ajv (draft-07, formats on) loaded and the schema compiled on first use only. */
function schemaValidator(): Promise<Validate> {
  compiled ??= (async () => {
    const ajvModule = (await import('ajv')) as unknown as Record<string, unknown>;
    const formatsModule = (await import('ajv-formats')) as unknown as Record<string, unknown>;
    const Ajv = (ajvModule.Ajv ??
      (ajvModule.default as Record<string, unknown>).default ??
      ajvModule.default) as new (o: object) => { compile(s: object): Validate };
    const addFormats = (
      typeof formatsModule.default === 'function'
        ? formatsModule.default
        : (formatsModule.default as Record<string, unknown>).default
    ) as (a: object) => void;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    return ajv.compile(SERVER_SCHEMA_2025_12_11);
  })();
  return compiled;
}

/** Ajv's `anyOf`/`oneOf` summaries repeat what the member errors say; keep the members. */
const SUMMARY = new Set(['anyOf', 'oneOf', 'if']);

function schemaIssue(e: AjvError): ServerJsonIssue {
  let message = e.message ?? e.keyword;
  if (e.keyword === 'additionalProperties') message += ` (${String(e.params.additionalProperty)})`;
  else if (e.keyword === 'enum') message += `: ${JSON.stringify(e.params.allowedValues)}`;
  else if (e.keyword === 'required') message = `${String(e.params.missingProperty)} is required`;
  return { pointer: e.instancePath, message, source: 'schema', severity: 'error' };
}

/** Version strings the registry refuses as ranges (docs/versioning.md), and `latest`. */
export function versionProblem(version: string): string | undefined {
  if (version.trim() === '') return 'must not be empty';
  if (version === 'latest') return 'must be a specific version, not "latest"';
  if (/^[\^~<>=]/.test(version) || /\|\|/.test(version) || /\s-\s/.test(version))
    return `"${version}" is a version range; the registry wants one specific version`;
  if (/(^|\.)(x|X|\*)(\.|$)/.test(version))
    return `"${version}" is a version range (wildcard); the registry wants one specific version`;
  return undefined;
}

const OFFICIAL_BASE_URLS: Record<string, string> = {
  npm: 'https://registry.npmjs.org',
  pypi: 'https://pypi.org',
  nuget: 'https://api.nuget.org/v3/index.json',
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The registry's own rules on a document that passed the schema. `packageJson` is the npm
 * package's manifest, when at hand, for the `mcpName` ownership check.
 */
function registryIssues(
  doc: Record<string, unknown>,
  packageJson?: Record<string, unknown>,
): ServerJsonIssue[] {
  const out: ServerJsonIssue[] = [];
  const err = (pointer: string, message: string) =>
    out.push({ pointer, message, source: 'registry', severity: 'error' });
  const warn = (pointer: string, message: string) =>
    out.push({ pointer, message, source: 'registry', severity: 'warning' });
  const name = doc.name as string;
  const version = doc.version as string;

  if (doc.$schema !== undefined && doc.$schema !== SERVER_SCHEMA_URL)
    err('/$schema', `must be ${SERVER_SCHEMA_URL} (the schema the registry takes now)`);
  const vp = versionProblem(version);
  if (vp !== undefined) err('/version', vp);

  const [namespace = ''] = name.split('/');
  const github = /^io\.github\.([^.]+)$/i.exec(namespace);
  const repo = isObj(doc.repository) ? doc.repository : undefined;
  if (github && repo?.source === 'github' && typeof repo.url === 'string') {
    const owner = /^https:\/\/github\.com\/([^/]+)\//i.exec(repo.url)?.[1];
    if (owner !== undefined && owner.toLowerCase() !== github[1]!.toLowerCase())
      warn(
        '/repository/url',
        `the name's namespace is io.github.${github[1]}, but the repository belongs to ${owner}: GitHub sign-in grants io.github.<your user or org>/* only`,
      );
  }

  const packages = Array.isArray(doc.packages) ? doc.packages : [];
  packages.forEach((p: unknown, i) => {
    if (!isObj(p)) return;
    const at = `/packages/${i}`;
    if (typeof p.version === 'string') {
      const pvp = versionProblem(p.version);
      if (pvp !== undefined) err(`${at}/version`, pvp);
      else if (packages.length === 1 && p.version !== version)
        warn(`${at}/version`, `differs from the server's version ${version}; align them for a local server`);
    }
    const type = p.registryType;
    if (typeof type === 'string' && type in OFFICIAL_BASE_URLS && p.registryBaseUrl !== undefined) {
      if (p.registryBaseUrl !== OFFICIAL_BASE_URLS[type])
        err(
          `${at}/registryBaseUrl`,
          `the official registry takes ${type} packages from ${OFFICIAL_BASE_URLS[type]} only`,
        );
    }
    if (type === 'mcpb') {
      if (typeof p.identifier === 'string' && !/^https:\/\/(github\.com|gitlab\.com)\//.test(p.identifier))
        err(`${at}/identifier`, 'MCPB packages must be GitHub or GitLab release downloads');
      if (p.fileSha256 === undefined) err(`${at}/fileSha256`, 'is required for MCPB packages');
    }
    if (type === 'npm' && packageJson !== undefined && packageJson.name === p.identifier) {
      if (packageJson.mcpName === undefined)
        err(
          `${at}/identifier`,
          `package.json has no "mcpName": add "mcpName": "${name}" (the registry checks the published package)`,
        );
      else if (packageJson.mcpName !== name)
        err(
          `${at}/identifier`,
          `package.json's mcpName is "${String(packageJson.mcpName)}", not the server's name "${name}"`,
        );
    }
  });

  const remotes = Array.isArray(doc.remotes) ? doc.remotes : [];
  remotes.forEach((r: unknown, i) => {
    if (!isObj(r) || typeof r.url !== 'string' || r.url.startsWith('{')) return;
    try {
      const u = new URL(r.url.replace(/\{[^}]*\}/g, 'x'));
      if (u.protocol !== 'https:')
        warn(`/remotes/${i}/url`, 'a published remote should be served over https');
      if (/^(localhost|127\.|10\.|192\.168\.|\[::1\])/.test(u.hostname))
        err(`/remotes/${i}/url`, `${u.hostname} is not publicly reachable; a remote server must be`);
    } catch {
      // The schema's pattern has already said what is wrong with it.
    }
  });
  if (packages.length === 0 && remotes.length === 0)
    warn('', 'neither packages nor remotes: clients will not know how to run or reach the server');

  if (isObj(doc._meta)) {
    for (const key of Object.keys(doc._meta)) {
      const at = `/_meta/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (key === OFFICIAL_META_KEY)
        err(at, 'is kept by the registry for its own metadata; a publisher may not set it');
      else if (key !== PUBLISHER_META_KEY)
        warn(at, `is dropped by the official registry: only ${PUBLISHER_META_KEY} is kept`);
    }
    const provided = doc._meta[PUBLISHER_META_KEY];
    if (provided !== undefined) {
      const size = new TextEncoder().encode(JSON.stringify(provided)).length;
      if (size > 4096)
        err(`/_meta/${PUBLISHER_META_KEY.replace('/', '~1')}`, `is ${size} bytes of JSON; the limit is 4096`);
    }
  }
  return out;
}

/**
 * Every problem of a `server.json`: schema errors first; the registry's rules when the schema
 * passes (they read fields the schema has vouched for).
 */
export async function validateServerJson(
  doc: unknown,
  packageJson?: Record<string, unknown>,
): Promise<ServerJsonIssue[]> {
  const validate = await schemaValidator();
  if (!validate(doc)) {
    const errors = validate.errors ?? [];
    const members = errors.filter((e) => !SUMMARY.has(e.keyword));
    return (members.length > 0 ? members : errors).map(schemaIssue);
  }
  return registryIssues(doc as Record<string, unknown>, packageJson);
}

/** One line per issue: `error /packages/0/version (registry): must be …`. */
export function formatIssues(issues: readonly ServerJsonIssue[]): string {
  return issues.map((i) => `${i.severity} ${i.pointer || '/'} (${i.source}): ${i.message}`).join('\n');
}
