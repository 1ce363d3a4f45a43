import type { JsonRpcMessage, RequestId, Transport } from '../jsonrpc/index.js';
import type { NotificationGate } from './notification-gate.js';
import type { SessionObserver } from './observer.js';
import type { SessionLogger } from './session-types.js';

/**
 * The transport end of one session, shared by its inbound and outbound halves: the
 * transport itself, whether the connection is closed or draining, and a send that never
 * throws. Both halves write to the wire directly, so no frame goes back through the
 * session class to leave.
 */
export class SessionWire {
  transport: Transport | undefined;
  closed = false;
  /** The peer stopped sending: answer what is in flight, send no new requests. */
  draining = false;
  /** Watches the traffic (telemetry); undefined costs one check per message. */
  observer: SessionObserver | undefined;
  /** The role's interceptors for notifications; undefined (or an empty list) costs one check each. */
  gate: NotificationGate | undefined;

  constructor(readonly logger: SessionLogger) {}

  /** Sends an already-built message or batch as it is; failures are logged, not thrown. */
  send(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: RequestId): void {
    if (this.closed || !this.transport) return;
    let r: void | Promise<void>;
    try {
      r = this.transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
    } catch (e) {
      this.logger('warning', 'Failed to send a message', e);
      return;
    }
    // A send cut short by our own close is expected, not worth a warning.
    if (r) r.catch((e: unknown) => this.closed || this.logger('warning', 'Failed to send a message', e));
  }
}
