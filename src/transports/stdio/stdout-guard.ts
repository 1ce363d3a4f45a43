import type { Writable } from 'node:stream';

/** Console methods that print to stdout; each is named in the warning when it is the culprit. */
const CONSOLE_METHODS = [
  'log',
  'info',
  'debug',
  'dir',
  'dirxml',
  'table',
  'count',
  'group',
  'groupCollapsed',
  'timeLog',
  'timeEnd',
] as const;

type Write = Writable['write'];

interface Guard {
  users: number;
  /** The stream's own write, which only the protocol uses while the guard is on. */
  write: (data: string) => boolean;
  restore(): void;
}

let active: Guard | undefined;

/**
 * Keeps the protocol stream clean while a stdio server runs: every other write to
 * `process.stdout` (the `console` methods that print there, `process.stdout.write` itself,
 * libraries that write directly) goes to stderr instead, and a warning naming the culprit
 * is printed once per culprit. Returns the real write for the protocol, and a release
 * function; the guard comes off when its last user releases it.
 */
export function guardStdout(): { write: (data: string) => boolean; release: () => void } {
  active ??= install();
  const guard = active;
  guard.users++;
  let released = false;
  return {
    write: guard.write,
    release: () => {
      if (released) return;
      released = true;
      if (--guard.users === 0) {
        guard.restore();
        if (active === guard) active = undefined;
      }
    },
  };
}

function install(): Guard {
  const stdout = process.stdout;
  const stderr = process.stderr;
  const hadOwnWrite = Object.hasOwn(stdout, 'write');
  const ownWrite = stdout.write;
  const realWrite = ownWrite.bind(stdout) as (data: string) => boolean;
  const warned = new Set<string>();
  let culprit: string | undefined;

  const redirected = function (this: unknown, ...args: Parameters<Write>): boolean {
    const who = culprit ?? 'process.stdout.write';
    if (!warned.has(who)) {
      warned.add(who);
      stderr.write(
        `[mcpkit] ${who}() wrote to stdout, which carries the MCP protocol; ` +
          'it was sent to stderr instead (use console.error for logs). Shown once.\n',
      );
    }
    return (stderr.write as (...a: unknown[]) => boolean)(...args);
  } as Write;
  stdout.write = redirected;

  const saved = new Map<string, unknown>();
  const con = console as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of CONSOLE_METHODS) {
    const original = con[name];
    if (typeof original !== 'function') continue;
    saved.set(name, original);
    con[name] = function (this: unknown, ...args: unknown[]) {
      const outer = culprit;
      culprit ??= `console.${name}`;
      try {
        return original.apply(this, args);
      } finally {
        culprit = outer;
      }
    };
  }

  return {
    users: 0,
    write: realWrite,
    restore: () => {
      if (stdout.write === redirected) {
        if (hadOwnWrite) stdout.write = ownWrite;
        else delete (stdout as { write?: unknown }).write;
      }
      for (const [name, fn] of saved) con[name] = fn as (...args: unknown[]) => unknown;
    },
  };
}
