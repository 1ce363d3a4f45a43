#!/usr/bin/env node
// Installs the Debian packages of the programs some test suites need (redis-server, haproxy,
// tmux, openssl, chromium: the table in src/test-support/services.ts) when this runs as root
// with apt-get, as a fresh CI machine does. Otherwise, or with MCPKIT_NO_PROVISION=1, it
// installs nothing and says which suites will skip. It does not fail the run (a suite whose
// program is still missing skips with a line naming the package) unless
// MCPKIT_REQUIRE_SERVICES=1, as CI sets so that no suite skips unnoticed. Run after the build.
import { spawnSync } from 'node:child_process';

let services;
try {
  services = await import('../dist/test-support/services.js');
} catch {
  console.error('provision-tests: run `npm run build` first (it reads dist/test-support/services.js).');
  process.exit(1);
}
const { SERVICES, installed } = services;

const missing = () => Object.values(SERVICES).filter((s) => !installed(s.command));
const absent = missing();
if (absent.length === 0) process.exit(0);

const packages = absent.map((s) => s.package);
const list = (ss) =>
  ss.map((s) => `${s.command} (Debian package ${s.package}) for ${s.neededBy}`).join('\n  ');
const why =
  process.env.MCPKIT_NO_PROVISION === '1'
    ? 'MCPKIT_NO_PROVISION=1'
    : process.getuid?.() !== 0
      ? 'not running as root'
      : !installed('apt-get')
        ? 'no apt-get'
        : undefined;
if (why !== undefined) {
  console.log(`Not installed (${why}), so their suites will skip:\n  ${list(absent)}`);
  console.log(`To run them: apt-get install ${packages.join(' ')}`);
  process.exit(process.env.MCPKIT_REQUIRE_SERVICES === '1' ? 1 : 0);
}

console.log(
  `Installing what the tests need: apt-get install ${packages.join(' ')} (MCPKIT_NO_PROVISION=1 to skip)`,
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const apt = (...args) =>
  spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let r = apt('install', '-y', ...packages);
// A fresh image has no package lists yet: fetch them once and try again.
if (r.status !== 0) {
  apt('update');
  r = apt('install', '-y', ...packages);
}
const left = missing();
if (left.length > 0) {
  const detail = `${r.stderr ?? ''}${r.error ? String(r.error) : ''}`
    .trim()
    .split('\n')
    .slice(-3)
    .join('\n  ');
  console.log(
    `Could not install, so their suites will skip:\n  ${list(left)}${detail ? `\napt-get said:\n  ${detail}` : ''}`,
  );
}
if (left.length > 0 && process.env.MCPKIT_REQUIRE_SERVICES === '1') process.exit(1);
