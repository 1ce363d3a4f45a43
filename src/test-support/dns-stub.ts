/**
 * The system resolver, answered by a table: `dns.lookup` and `dns/promises`' `lookup` (what
 * getaddrinfo-based code, Node's `fetch`, undici and `net.connect` use) return the table's
 * addresses for its names, and ask the real resolver for every other name. Each name has a
 * list of answers, one per lookup, the last repeating: `[['93.184.215.14'], ['127.0.0.1']]`
 * answers public first and loopback after (DNS rebinding). Lets a test point a public-looking
 * name at an address without touching /etc/hosts, so code that configures no resolver is
 * tested as users run it. In-process (`stubSystemDns`), or in a child through
 * `--import dns-stub-preload.js` with the table in `MCPKIT_TEST_DNS`.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

type Callback = (error: Error | null, address?: unknown, family?: number) => void;
interface LookupOptions {
  all?: boolean;
  family?: number | string;
}

/** Names and their successive answers. */
export type DnsTable = Record<string, readonly (readonly string[])[]>;

export interface DnsStub {
  /** Every lookup of a table name, in order, with the answer given. */
  readonly asked: { name: string; answer: readonly string[] }[];
  restore(): void;
}

const require = createRequire(import.meta.url);

function notFound(name: string): Error {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), {
    code: 'ENOTFOUND',
    hostname: name,
  });
}

/**
 * Answers lookups of the table's names (case-insensitive) from the table until `restore()`.
 */
export function stubSystemDns(table: DnsTable): DnsStub {
  const dns = require('node:dns') as { lookup: unknown; promises: { lookup: unknown } };
  const promises = require('node:dns/promises') as { lookup: unknown };
  const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup, modLookup: promises.lookup };
  const asked: DnsStub['asked'] = [];
  const answered = new Map<string, number>();
  const lower = new Map(Object.entries(table).map(([k, v]) => [k.toLowerCase(), v]));

  /** The next answer for a table name, or undefined for other names. */
  const answer = (
    name: string,
    options: LookupOptions,
  ): { address: string; family: number }[] | undefined => {
    const key = name.toLowerCase();
    const answers = lower.get(key);
    if (!answers) return undefined;
    const n = answered.get(key) ?? 0;
    answered.set(key, n + 1);
    const chosen = answers[Math.min(n, answers.length - 1)] ?? [];
    asked.push({ name: key, answer: chosen });
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 ? 6 : 0;
    return chosen
      .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
      .filter((a) => family === 0 || a.family === family);
  };

  /** dns.lookup's second argument: options, a family number, or the callback. */
  const lookupOptionsOf = (opts: unknown): LookupOptions =>
    typeof opts === 'object' && opts !== null
      ? (opts as LookupOptions)
      : typeof opts === 'number'
        ? { family: opts }
        : {};

  const lookup = (name: string, opts: unknown, cb?: Callback): void => {
    const callback = (typeof opts === 'function' ? opts : cb) as Callback;
    const options = lookupOptionsOf(opts);
    const found = answer(name, options);
    if (found === undefined) {
      (original.lookup as (...a: unknown[]) => void)(
        name,
        ...(typeof opts === 'function' ? [] : [opts]),
        callback,
      );
      return;
    }
    process.nextTick(() => {
      if (found.length === 0) callback(notFound(name));
      else if (options.all === true) callback(null, found);
      else callback(null, found[0]!.address, found[0]!.family);
    });
  };
  const promisesLookup = async (name: string, opts?: unknown): Promise<unknown> => {
    const options = lookupOptionsOf(opts);
    const found = answer(name, options);
    if (found === undefined) return (original.modLookup as (...a: unknown[]) => Promise<unknown>)(name, opts);
    if (found.length === 0) throw notFound(name);
    return options.all === true ? found : found[0];
  };

  dns.lookup = lookup;
  dns.promises.lookup = promisesLookup;
  promises.lookup = promisesLookup;
  syncBuiltinESMExports();
  return {
    asked,
    restore() {
      dns.lookup = original.lookup;
      dns.promises.lookup = original.promisesLookup;
      promises.lookup = original.modLookup;
      syncBuiltinESMExports();
    },
  };
}
