/**
 * Every TCP connection this process attempts, seen through Node's `net.client.socket`
 * diagnostics channel: the address and port of each attempt (after name resolution), so a
 * test can assert that nothing was even tried, and that no attempt left loopback.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';

export interface ConnectionWatch {
  /** Attempts so far: `address:port` as the socket dialled it. */
  readonly attempts: { address: string; port: number }[];
  stop(): void;
}

const CHANNEL = 'net.client.socket';

/**
 * Records the connection attempts of every client socket created until `stop()`.
 */
export function watchConnections(): ConnectionWatch {
  const attempts: ConnectionWatch['attempts'] = [];
  const onSocket = (message: unknown): void => {
    const socket = (message as { socket: Socket }).socket;
    socket.on('connectionAttempt', (address: string, port: number) => attempts.push({ address, port }));
  };
  subscribe(CHANNEL, onSocket);
  return { attempts, stop: () => void unsubscribe(CHANNEL, onSocket) };
}

/** A TCP listener that only counts the connections it receives (nothing is answered). */
export interface Canary {
  readonly host: string;
  readonly port: number;
  /** Connections received so far. */
  readonly hits: number;
  close(): Promise<void>;
}

/**
 * Listens on `host` (a loopback address) and counts connections: the place a refused
 * request must never reach.
 */
export async function startCanary(host = '127.0.0.1', port = 0): Promise<Canary> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    hits++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    get hits() {
      return hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
