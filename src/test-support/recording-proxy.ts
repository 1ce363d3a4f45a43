/**
 * A TCP proxy on 127.0.0.1 that forwards to a port and keeps every byte of both directions,
 * so a test can say what crossed a link (a token, a header) whatever the protocol layered on it.
 */
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordingProxy {
  readonly port: number;
  /** Everything sent towards the target so far. */
  sent(): Buffer;
  /** Everything the target answered so far. */
  received(): Buffer;
  close(): Promise<void>;
}

/**
 * Forwards connections on a port of its own to `targetPort` on 127.0.0.1, recording both ways.
 */
export async function startRecordingProxy(targetPort: number): Promise<RecordingProxy> {
  const out: Buffer[] = [];
  const back: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = net.createServer((down) => {
    const up = net.connect(targetPort, '127.0.0.1');
    sockets.add(down).add(up);
    const cut = (): void => {
      down.destroy();
      up.destroy();
    };
    down.on('error', cut).on('close', () => (sockets.delete(down), up.destroy()));
    up.on('error', cut).on('close', () => (sockets.delete(up), down.destroy()));
    down.on('data', (chunk: Buffer) => {
      out.push(chunk);
      up.write(chunk);
    });
    up.on('data', (chunk: Buffer) => {
      back.push(chunk);
      down.write(chunk);
    });
    down.on('end', () => up.end());
    up.on('end', () => down.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    sent: () => Buffer.concat(out),
    received: () => Buffer.concat(back),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
