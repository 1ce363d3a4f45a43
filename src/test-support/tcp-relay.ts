/**
 * A TCP relay on 127.0.0.1 that forwards every connection to a port, byte for byte, and shows
 * each chunk to the test on its way: the base of the recording proxy and the cut proxy.
 */
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** One relayed connection: `cut()` destroys both sides, as a dropped link would. */
export interface RelayLink {
  readonly down: Socket;
  readonly up: Socket;
  cut(): void;
}

/** What a test sees of the traffic; each chunk is forwarded before `received` is called. */
export interface RelayHooks {
  sent?(chunk: Buffer, link: RelayLink): void;
  received?(chunk: Buffer, link: RelayLink): void;
}

export interface Relay {
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1 and relays each connection to `targetPort`. */
export async function startRelay(targetPort: number, hooks: RelayHooks = {}): Promise<Relay> {
  const sockets = new Set<Socket>();
  const server = net.createServer((down) => {
    const up = net.connect(targetPort, '127.0.0.1');
    sockets.add(down).add(up);
    const link: RelayLink = {
      down,
      up,
      cut: () => {
        down.destroy();
        up.destroy();
      },
    };
    down.on('error', link.cut).on('close', () => (sockets.delete(down), up.destroy()));
    up.on('error', link.cut).on('close', () => (sockets.delete(up), down.destroy()));
    down.on('data', (chunk: Buffer) => {
      hooks.sent?.(chunk, link);
      up.write(chunk);
    });
    up.on('data', (chunk: Buffer) => {
      down.write(chunk);
      hooks.received?.(chunk, link);
    });
    down.on('end', () => up.end());
    up.on('end', () => down.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
