/**
 * A TCP proxy on 127.0.0.1 that cuts a connection in the middle of a response stream: once
 * armed, the first server chunk carrying the marker is forwarded, then both sides of that
 * connection are destroyed, as a dropped link or a crashed load balancer would. Used by
 * the drop test and by `test/faults/http-drop.mjs`.
 */
import net from 'node:net';
import type { Socket } from 'node:net';

export interface CutProxy {
  readonly port: number;
  /** Connections cut so far. */
  readonly cuts: number;
  /** Cuts the next connection whose response carries `marker`; resolves with the time of the cut. */
  arm(marker: string): Promise<number>;
  close(): Promise<void>;
}

export async function startCutProxy(targetPort: number): Promise<CutProxy> {
  let armed: { marker: Buffer; resolve: (at: number) => void } | undefined;
  let cuts = 0;
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
    down.pipe(up);
    up.on('data', (chunk: Buffer) => {
      down.write(chunk);
      if (armed && chunk.includes(armed.marker)) {
        const { resolve } = armed;
        armed = undefined;
        cuts++;
        // The chunk reaches the client first: it has read part of the stream when cut.
        down.end(cut);
        resolve(performance.now());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get cuts() {
      return cuts;
    },
    arm: (marker) => new Promise((resolve) => (armed = { marker: Buffer.from(marker), resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
