/**
 * The Node-only part of the auth layer (`mcpkit/auth/node`): a credential store in a file,
 * the loopback redirect catcher with a browser opener that never goes through a shell, and
 * the DNS resolver of the network policy (node-network.ts: what `mcpkit/auth` on Node checks
 * addresses with). Everything else in `src/auth` runs in browsers.
 */
// The Node modules load with the first call that needs each (an import of mcpkit/auth/node
// otherwise costs about 10 ms more): a program that only keeps credentials in a file never
// loads node:http, and one that opens no browser never loads node:child_process.
import type { AddressInfo } from 'node:net';
import { AuthError } from './errors.js';
import { callbackFromUrl, checkRedirectUri } from './client/interaction.js';
import type { AuthorizationCallback, AuthorizationInteraction } from './client/interaction.js';
import type { CredentialStore, IssuerRecord } from './client/store.js';

interface StoreFile {
  version: 1;
  issuers: Record<string, IssuerRecord>;
}

/**
 * A {@link CredentialStore} in a JSON file, for CLIs: written atomically (temporary file,
 * then rename) with mode 0600 in a directory created with mode 0700. Operations of one
 * process are serialized; records are keyed by issuer.
 *
 * @example
 * ```ts
 * const store = new FileCredentialStore(join(homedir(), '.config', 'mcpkit', 'credentials.json'));
 * const oauth = new OAuthClient({ serverUrl, store, interaction: await loopbackInteraction() });
 * ```
 */
export class FileCredentialStore implements CredentialStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  get(issuer: string): Promise<IssuerRecord | undefined> {
    return this.serial(async () => (await this.read()).issuers[issuer]);
  }

  set(issuer: string, record: IssuerRecord): Promise<void> {
    return this.serial(async () => {
      const file = await this.read();
      file.issuers[issuer] = { ...record, issuer };
      await this.write(file);
    });
  }

  delete(issuer: string): Promise<void> {
    return this.serial(async () => {
      const file = await this.read();
      delete file.issuers[issuer];
      await this.write(file);
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<StoreFile> {
    let text: string;
    try {
      const { readFile } = await import('node:fs/promises');
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return { version: 1, issuers: {} };
      throw e;
    }
    const parsed = JSON.parse(text) as Partial<StoreFile>;
    const issuers = typeof parsed.issuers === 'object' && parsed.issuers !== null ? parsed.issuers : {};
    return { version: 1, issuers: Object.assign(Object.create(null) as object, issuers) };
  }

  private async write(file: StoreFile): Promise<void> {
    const [{ mkdir, rename, rm, writeFile }, { randomBytes }, { dirname }] = await Promise.all([
      import('node:fs/promises'),
      import('node:crypto'),
      import('node:path'),
    ]);
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await rename(tmp, this.path);
    } catch (e) {
      // The old file is untouched: only the temporary one was being written.
      await rm(tmp, { force: true });
      const code = (e as { code?: string }).code;
      throw new AuthError(
        'StoreFailed',
        `Cannot save credentials to ${this.path}${code === 'ENOSPC' ? ': the disk is full' : ''} (the previous file is kept): ${(e as Error).message}`,
        { cause: e },
      );
    }
  }
}

/**
 * Opens an http(s) URL in the default browser without a shell: `open` on macOS,
 * `rundll32 url.dll,FileProtocolHandler` on Windows, `xdg-open` elsewhere, each given the
 * URL as one argument. Any other scheme is refused.
 *
 * @example
 * ```ts
 * await openInBrowser(new URL('https://auth.example.com/authorize?…'));
 * ```
 */
export async function openInBrowser(url: URL): Promise<void> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AuthError('UnsafeUrl', `Refused to open a ${url.protocol} URL`);
  }
  const { spawn } = await import('node:child_process');
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url.href]]
      : process.platform === 'win32'
        ? ['rundll32.exe', ['url.dll,FileProtocolHandler', url.href]]
        : ['xdg-open', [url.href]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { shell: false, stdio: 'ignore', detached: true, windowsHide: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/** Options of {@link loopbackInteraction}. */
export interface LoopbackOptions {
  /** Loopback address to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free one; the redirect URI then changes per run). */
  port?: number;
  /** Callback path (default `/callback`). */
  path?: string;
  /** Shows the URL to the user (default: print it to stderr and try {@link openInBrowser}). */
  open?: (url: URL) => void | Promise<void>;
  /** How long to wait for the user, in ms (default 5 minutes). */
  timeoutMs?: number;
}

const DONE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Authorized</title>' +
  '<p>Authorization finished. You can close this window and return to the application.</p>';

/**
 * An interaction for native apps and CLIs (RFC 8252): a listener on a loopback port catches
 * the redirect, and the URL is shown in the user's browser. The listener does not keep the
 * process alive between flows; call `close()` when done.
 *
 * @example
 * ```ts
 * const interaction = await loopbackInteraction({ port: 8765 });
 * const oauth = new OAuthClient({ serverUrl, interaction });
 * // … later
 * await interaction.close();
 * ```
 */
export async function loopbackInteraction(
  options: LoopbackOptions = {},
): Promise<AuthorizationInteraction & { close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/callback';
  const hostInUri = host.includes(':') ? `[${host}]` : host;
  // Checked before listening: a listener on another address would take callbacks from the network.
  checkRedirectUri(`http://${hostInUri}${path}`);
  const waiters = new Map<string, (c: AuthorizationCallback) => void>();
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const state = url.searchParams.get('state');
    const waiter = state === null ? undefined : waiters.get(state);
    if (req.method !== 'GET' || url.pathname !== path || !waiter) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    waiters.delete(state!);
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(DONE_PAGE);
    waiter(callbackFromUrl(url));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  server.unref();
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://${hostInUri}:${port}${path}`;
  const show =
    options.open ??
    (async (url: URL) => {
      process.stderr.write(`Open this URL to authorize:\n  ${url.href}\n`);
      await openInBrowser(url).catch(() => undefined);
    });
  return {
    redirectUri,
    async openAuthorizationUrl(url, context) {
      const state = url.searchParams.get('state');
      if (state === null) throw new AuthError('AuthorizationFailed', 'The authorization URL has no state');
      const result = new Promise<AuthorizationCallback>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(state);
          reject(new AuthError('AuthorizationFailed', 'Timed out waiting for the authorization redirect'));
        }, options.timeoutMs ?? 300_000);
        waiters.set(state, (c) => {
          clearTimeout(timer);
          resolve(c);
        });
        context.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          waiters.delete(state);
          reject(context.signal!.reason);
        });
      });
      await show(url);
      return result;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export { dnsResolver } from './node-network.js';
