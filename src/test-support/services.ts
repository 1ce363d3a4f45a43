/**
 * The programs some test suites need beyond npm, and the Debian package of each. A suite
 * that needs a missing one skips with `missing(...)` as its reason: one line naming the
 * program and the package. `npm test` installs them first when it can (root with apt:
 * scripts/provision-tests.mjs reads this table), and scripts/run-tests.mjs lists every skip
 * at the end.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { CHROMIUM } from './chromium.js';

/** A program the tests run, and where it comes from. */
export interface Service {
  /** The command (looked up on PATH) or an absolute path. */
  readonly command: string;
  /** The Debian package that installs it. */
  readonly package: string;
  /** Which tests need it. */
  readonly neededBy: string;
}

export const SERVICES = {
  redis: {
    command: 'redis-server',
    package: 'redis-server',
    neededBy: 'the Redis store and multi-node tests',
  },
  haproxy: { command: 'haproxy', package: 'haproxy', neededBy: 'the load-balancer tests' },
  tmux: { command: 'tmux', package: 'tmux', neededBy: 'the interactive shell test (a pseudo-terminal)' },
  openssl: {
    command: 'openssl',
    package: 'openssl',
    neededBy: 'the HTTPS client tests (a throwaway certificate)',
  },
  chromium: { command: CHROMIUM, package: 'chromium', neededBy: 'the MCP Apps and inspector browser tests' },
} as const satisfies Record<string, Service>;

export type ServiceName = keyof typeof SERVICES;

/** Whether `command` is an executable file: an absolute path, or a name found on PATH. */
export function installed(command: string, path: string = process.env.PATH ?? ''): boolean {
  const candidates = isAbsolute(command)
    ? [command]
    : path
        .split(delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => join(dir, command));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The skip reason for a service that is not installed: one line naming its package. */
export function skipReason(name: ServiceName): string {
  const s = SERVICES[name];
  return `needs ${s.command}, not installed (Debian package ${s.package}: apt-get install ${s.package})`;
}

/**
 * Why a suite needing these services must skip (the first missing one), or false when all
 * are installed: the value for node:test's `skip` option.
 */
export function missing(...names: ServiceName[]): string | false {
  const absent = names.find((name) => !installed(SERVICES[name].command));
  return absent === undefined ? false : skipReason(absent);
}
