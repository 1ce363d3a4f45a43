// A fresh machine without the Debian packages: suites needing a missing program skip with one
// line naming its package, the runner lists the skips at the end, and the provisioning step
// installs what is missing when it can. Absence is simulated with PATH (and MCPKIT_CHROMIUM).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SERVICES, installed, missing, skipReason } from './services.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-services-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh directory to serve as the whole PATH. */
function emptyDir(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  return dir;
}

/** Runs node with `args` in the repository, with `env` over this process's environment. */
function node(args: string[], env: Record<string, string>) {
  // Not as a child of this test run: node --test would report to it instead of printing.
  // CI's own MCPKIT_REQUIRE_SERVICES would change what the script under test does: each test sets its own.
  const { NODE_TEST_CONTEXT: _, MCPKIT_REQUIRE_SERVICES: __, ...inherited } = process.env;
  return spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...inherited, ...env },
    timeout: 120_000,
  });
}

describe('the programs the tests need', () => {
  test('a command counts as installed only when an executable of its name is on PATH', () => {
    const dir = emptyDir('lookup');
    assert.equal(installed('redis-server', dir), false);
    writeFileSync(join(dir, 'redis-server'), '');
    assert.equal(installed('redis-server', dir), false, 'a file that cannot be executed');
    chmodSync(join(dir, 'redis-server'), 0o755);
    assert.equal(installed('redis-server', dir), true);
    assert.equal(installed('redis-server', `/nonexistent:${dir}`), true);
    assert.equal(installed(join(dir, 'redis-server'), ''), true, 'an absolute path needs no PATH');
  });

  test("a missing program's skip reason names it and its Debian package", () => {
    assert.equal(
      skipReason('redis'),
      'needs redis-server, not installed (Debian package redis-server: apt-get install redis-server)',
    );
    // node itself is not a service; every service is either there or named by its reason.
    for (const name of Object.keys(SERVICES) as Array<keyof typeof SERVICES>) {
      const reason = missing(name);
      assert.equal(reason === false, installed(SERVICES[name].command), name);
      if (reason !== false) assert.match(reason, new RegExp(`Debian package ${SERVICES[name].package}`));
    }
  });

  test('without redis-server the Redis suites skip at once, and the runner lists them at the end', () => {
    const started = Date.now();
    const r = node(
      [
        'scripts/run-tests.mjs',
        'dist/stores/redis/redis-tasks.test.js',
        'dist/stores/redis/redis-keys.test.js',
      ],
      {
        PATH: emptyDir('no-redis'),
      },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const reason = skipReason('redis');
    // One line per suite, in the runner's output, then the summary.
    assert.equal(r.stdout.split('\n').filter((l) => l.includes(`# ${reason}`)).length, 3, r.stdout);
    const summary = r.stdout.slice(r.stdout.indexOf('\nSkipped ('));
    assert.match(summary, /^\nSkipped \(3 tests or suites\), by reason:\n/);
    assert.ok(summary.includes(`  ${reason}:\n`), summary);
    assert.ok(summary.includes('    src/stores/redis/redis-keys.test.ts (1)\n'), summary);
    assert.ok(summary.includes('    src/stores/redis/redis-tasks.test.ts (2)\n'), summary);
    // The Redis-free suite of redis-keys still ran.
    assert.match(r.stdout, /✔ Redis key layout: slots/);
    assert.ok(Date.now() - started < 60_000, 'nothing waited for a server that is not there');
  });

  test('with everything installed, the runner says nothing was skipped', () => {
    const r = node(['scripts/run-tests.mjs', 'dist/jsonrpc/optional-peer.test.js'], {});
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /\nNothing skipped\.\n$/);
  });
});

describe('provisioning (scripts/provision-tests.mjs)', () => {
  /**
   * A PATH holding only a stand-in apt-get: it logs its arguments, refuses to install until
   * `update` has run (a fresh image has no package lists), then "installs" each package by
   * creating an executable of its name (chromium at MCPKIT_CHROMIUM).
   */
  function fakeApt(name: string): { env: Record<string, string>; log: string; dir: string } {
    const dir = emptyDir(name);
    const log = join(dir, 'apt.log');
    const chromium = join(dir, 'chromium-browser');
    writeFileSync(
      join(dir, 'apt-get'),
      `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, args.join(' ') + '\\n');
const updated = ${JSON.stringify(join(dir, 'updated'))};
if (args[0] === 'update') { fs.writeFileSync(updated, ''); process.exit(0); }
if (!fs.existsSync(updated)) { process.stderr.write('E: Unable to locate package\\n'); process.exit(100); }
for (const p of args.slice(1).filter((a) => !a.startsWith('-'))) {
  const file = p === 'chromium' ? ${JSON.stringify(chromium)} : ${JSON.stringify(dir)} + '/' + p;
  fs.writeFileSync(file, '');
  fs.chmodSync(file, 0o755);
}
`,
    );
    chmodSync(join(dir, 'apt-get'), 0o755);
    return { env: { PATH: dir, MCPKIT_CHROMIUM: chromium }, log, dir };
  }

  test('as root with apt-get, it installs every missing package (updating the lists once)', (t) => {
    const { env, log, dir } = fakeApt('apt-root');
    const r = node(['scripts/provision-tests.mjs'], env);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    if (process.getuid?.() !== 0) {
      assert.match(r.stdout, /Not installed \(not running as root\), so their suites will skip:/);
      assert.equal(existsSync(log), false, 'apt-get was not run');
      return void t.diagnostic('not root here: checked that nothing was installed');
    }
    const packages = Object.values(SERVICES).map((s) => s.package);
    assert.match(
      r.stdout,
      new RegExp(`^Installing what the tests need: apt-get install ${packages.join(' ')} `),
    );
    assert.deepEqual(readFileSync(log, 'utf8').split('\n').filter(Boolean), [
      `install -y ${packages.join(' ')}`,
      'update',
      `install -y ${packages.join(' ')}`,
    ]);
    for (const p of ['redis-server', 'haproxy', 'tmux', 'openssl']) assert.ok(installed(p, dir), p);
    assert.doesNotMatch(r.stdout, /Could not install/);
  });

  test('with MCPKIT_NO_PROVISION=1 it installs nothing and names what will skip', () => {
    const { env, log } = fakeApt('apt-opt-out');
    const r = node(['scripts/provision-tests.mjs'], { ...env, MCPKIT_NO_PROVISION: '1' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(existsSync(log), false, 'apt-get was not run');
    assert.match(r.stdout, /^Not installed \(MCPKIT_NO_PROVISION=1\), so their suites will skip:\n/);
    assert.match(
      r.stdout,
      /\n {2}redis-server \(Debian package redis-server\) for the Redis store and multi-node tests\n/,
    );
    assert.match(r.stdout, /\nTo run them: apt-get install redis-server haproxy tmux openssl chromium\n$/);
  });

  test('with MCPKIT_REQUIRE_SERVICES=1 (CI), a program left missing fails the run', () => {
    const { env } = fakeApt('apt-required');
    const r = node(['scripts/provision-tests.mjs'], {
      ...env,
      MCPKIT_NO_PROVISION: '1',
      MCPKIT_REQUIRE_SERVICES: '1',
    });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^Not installed \(MCPKIT_NO_PROVISION=1\)/);
  });

  test('without apt-get it installs nothing and says so', () => {
    const r = node(['scripts/provision-tests.mjs'], {
      PATH: emptyDir('no-apt'),
      MCPKIT_CHROMIUM: '/nonexistent',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^Not installed \((no apt-get|not running as root)\), so their suites will skip:\n/,
    );
  });
});
