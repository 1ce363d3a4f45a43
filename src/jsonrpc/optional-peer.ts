import { LocalError } from './local-error.js';

/**
 * Loads an optional peer dependency (an LLM SDK, ioredis) the first time a feature needs it.
 * The package is not installed with mcpkit, so a server-only install stays small; when it is
 * missing, the caller gets a `PackageMissing` error naming the package and the command that
 * installs it, instead of Node's resolution error.
 *
 * `load` is the literal `import('<package>')`, so bundlers and Node see a plain specifier.
 */
export async function importOptionalPeer<T>(
  pkg: string,
  feature: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isNotFound(e, pkg)) {
      throw new LocalError(
        'PackageMissing',
        `${feature} needs the package ${pkg}, which is not installed: npm install ${pkg}`,
        { cause: e },
      );
    }
    throw e;
  }
}

/** Whether `e` says that `pkg` itself (not something inside it) could not be resolved. */
function isNotFound(e: unknown, pkg: string): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  // Node: "Cannot find package 'openai' imported from …"; a broken install of the package
  // itself names one of its files instead, and is reported as it is.
  return e.message.includes(`'${pkg}'`) || e.message.includes(`"${pkg}"`);
}
