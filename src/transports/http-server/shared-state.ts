import type { JsonRpcMessage, RequestId } from '../../jsonrpc/index.js';
import type { EventStore } from './event-store.js';
import type { LegacySessionStore } from './legacy-session-store.js';

export { MemoryLegacySessionStore } from './legacy-session-store.js';
export type {
  CopyLease,
  LeaseHolders,
  LegacySessionRecord,
  LegacySessionStore,
  SessionLimits,
} from './legacy-session-store.js';

/** A message between the nodes of a cluster. */
export type ClusterMessage =
  /** A client's message for a session held on the receiving node(s): a response, a cancellation, progress. */
  | { t: 'deliver'; s: string; m: string }
  /**
   * The session's recorded state changed: nodes holding it replay op number `n` (its text `m`),
   * or read the store. The nodes in `w` confirm with `seen` to node `r`, quoting `k`.
   */
  | { t: 'ops'; s: string; n?: number; m?: string; w?: string[]; r?: string; k?: number }
  /** The session was ended (DELETE, expiry): nodes holding it close their copy (and confirm, as for `ops`). */
  | { t: 'end'; s: string; w?: string[]; r?: string; k?: number }
  /** Node `f` has taken in the change that node's wait `k` is about (see `ops`). */
  | { t: 'seen'; k: number; f: string }
  /** A server change to announce (list_changed, resources/updated) to every node's clients. */
  | { t: 'change'; e: { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string } }
  /**
   * A client's POST for a 2024-11-05 HTTP+SSE connection held on the receiving node; `r` and
   * `k` name the acknowledgement. `p` is the poster's `principalKey`, which the receiver checks
   * against the connection's; `a` its authInfo for the handlers (plain data: a bus that
   * crosses processes carries it as JSON, as it does the rest).
   */
  | { t: 'sse'; c: string; m: string; r: string; k: number; p: string; a?: unknown }
  /** Whether the node holding an HTTP+SSE connection took the message (`ok`), for acknowledgement `k`. */
  | { t: 'sse-ack'; k: number; ok: boolean };

/**
 * Messages between nodes: to one node by id, or to all. Delivery is at most once: a node
 * that is down misses what was sent meanwhile, which the protocol tolerates (a lost
 * notification) or turns into an error the client sees (a lost response).
 */
export interface ClusterBus {
  /** This node's id, unique in the cluster. */
  readonly nodeId: string;
  /**
   * Sends to one node, or to every node but this one when `to` is null. Resolves once the
   * message is on its way to the receivers (never rejects: a message lost is counted), so a
   * state change can be announced before the client hears it was made.
   */
  publish(to: string | null, message: ClusterMessage): Promise<void>;
  /** Receives messages for this node; returns the function that stops it. */
  subscribe(listener: (message: ClusterMessage) => void): () => void;
}

/** Optional extras an {@link EventStore} offers when several nodes share it. */
export interface FollowableEventStore {
  /**
   * Replays the events after `lastEventId` and then carries the stream's later events as
   * they are stored, from whichever node writes them, until its last one; if the node that
   * writes it stops, unanswered requests get an error and the stream ends. Resolves to a
   * stop function, or undefined when the id is unknown.
   */
  follow(
    lastEventId: string,
    send: (eventId: string | undefined, message: JsonRpcMessage) => void,
    end: () => void,
  ): Promise<(() => void) | undefined>;
}

/**
 * Everything nodes share: sessions, resumable events, messages between nodes and the MRTR
 * key. Made by `connectRedisStores`, or by hand for another backend.
 */
export interface SharedStores {
  readonly sessions: LegacySessionStore;
  readonly events: EventStore & FollowableEventStore;
  readonly bus: ClusterBus;
  /** The key every node seals MRTR `requestState` with. */
  readonly requestStateKey: Uint8Array;
  /** Where the server keeps tasks (the server's `TaskStore`), when the backend has one. */
  readonly taskStore?: unknown;
  /** Calls `listener` each time the store is reachable again after an outage. */
  onReconnect?(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * The ids of a stream's requests as a token in its stream id (base64url JSON), so a node that
 * resumes the stream can fail them if their node stopped before storing anything; undefined
 * when they are too long to carry that way.
 */
export function encodeRequestIds(ids: readonly RequestId[]): string | undefined {
  const json = JSON.stringify(ids);
  // The usual ids (numbers, ASCII strings) are their own UTF-8: no encoder, no byte loop.
  let s = json;
  if (NOT_ASCII.test(json)) {
    const bytes = (utf8 ??= new TextEncoder()).encode(json);
    s = '';
    for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  }
  if (s.length > 64) return undefined;
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// JSON text has no raw control characters (they are escaped), so printable ASCII is all of ASCII.
const NOT_ASCII = /[^\x20-\x7e]/;
let utf8: TextEncoder | undefined;

/** The request ids carried by {@link encodeRequestIds}; undefined when the token is not one. */
export function decodeRequestIds(token: string): RequestId[] | undefined {
  try {
    const bin = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const ids: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return Array.isArray(ids) && ids.every((x) => typeof x === 'string' || typeof x === 'number')
      ? (ids as RequestId[])
      : undefined;
  } catch {
    return undefined;
  }
}
