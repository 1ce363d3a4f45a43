/**
 * A TCP proxy on 127.0.0.1 that forwards to a port and keeps every byte of both directions,
 * so a test can say what crossed a link (a token, a header) whatever the protocol layered on it.
 */
import { startRelay } from './tcp-relay.js';

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
  const relay = await startRelay(targetPort, {
    sent: (chunk) => void out.push(chunk),
    received: (chunk) => void back.push(chunk),
  });
  return {
    port: relay.port,
    sent: () => Buffer.concat(out),
    received: () => Buffer.concat(back),
    close: () => relay.close(),
  };
}
