import type { RequestId } from '../jsonrpc/index.js';

/** A progress update as the receiver sees it. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options for one outbound request. */
export interface RequestOptions {
  /** Cancels the request: it is rejected at once and the peer is told where the era calls for it. */
  signal?: AbortSignal;
  /** Time allowed without an answer (default: the session's, 60 s). */
  timeoutMs?: number;
  /** Progress resets the timeout only when this is true. */
  resetTimeoutOnProgress?: boolean;
  /** Upper bound on the whole request, progress or not (default: the session's, 10 min). */
  maxTotalTimeoutMs?: number;
  /** Receives the peer's progress notifications for this request. */
  onprogress?: (progress: Progress) => void;
  /** The inbound request this outbound one is made on behalf of (legacy server-to-client). */
  relatedRequestId?: RequestId;
  /** Extra HTTP headers for this request, where the transport has per-request HTTP (streamable HTTP). */
  headers?: Readonly<Record<string, string>>;
  /** Told the JSON-RPC id the request is sent under, before it is sent. */
  onRequestId?: (id: RequestId) => void;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;
