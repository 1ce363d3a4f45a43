/**
 * Where the installed package's files are, whichever build runs: tsc's modules sit at
 * `dist/<folder>/`, bundle chunks at `dist/bundle/chunks/`, so a path relative to a module
 * breaks when the module moves. The root (the folder of mcpkit's package.json) is found once
 * by climbing from this module, and every package file is named from it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Found {
  dir: string;
  bin: Record<string, string>;
  version: string;
}

let found: Found | undefined;

function find(): Found {
  if (found !== undefined) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    let pkg: { name?: unknown; bin?: Record<string, string>; version?: unknown } | undefined;
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof pkg;
    } catch {
      // No (readable) package.json here: climb on.
    }
    if (pkg?.name === 'mcpkit')
      return (found = { dir, bin: pkg.bin ?? {}, version: String(pkg.version ?? 'unknown') });
    if (dirname(dir) === dir) throw new Error(`mcpkit: no package.json of mcpkit above ${start}`);
  }
}

/** A file of the installed package, by its path from the package root (`dist/inspector-ui`). */
export function packageFile(...path: string[]): string {
  return join(find().dir, ...path);
}

/** The `mcpkit` command's script as the package publishes it (its `bin`), to run with node. */
export function cliScript(): string {
  const bin = find().bin.mcpkit;
  if (bin === undefined) throw new Error('mcpkit: package.json has no bin.mcpkit');
  return packageFile(bin);
}

/** The installed mcpkit's version, as its package.json says (recordings name it). */
export function packageVersion(): string {
  return find().version;
}
