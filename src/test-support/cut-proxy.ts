/**
 * A TCP proxy on 127.0.0.1 that cuts a connection in the middle of a response stream: once
 * armed, the first server chunk carrying the marker is forwarded, then both sides of that
 * connection are destroyed, as a dropped link or a crashed load balancer would. Used by
 * the drop test and by `test/faults/http-drop.mjs`.
 */
import { startRelay } from './tcp-relay.js';

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
  const relay = await startRelay(targetPort, {
    received(chunk, link) {
      if (!armed || !chunk.includes(armed.marker)) return;
      const { resolve } = armed;
      armed = undefined;
      cuts++;
      // The chunk reaches the client first: it has read part of the stream when cut.
      link.down.end(link.cut);
      resolve(performance.now());
    },
  });
  return {
    port: relay.port,
    get cuts() {
      return cuts;
    },
    arm: (marker) => new Promise((resolve) => (armed = { marker: Buffer.from(marker), resolve })),
    close: () => relay.close(),
  };
}
