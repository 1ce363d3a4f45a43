/**
 * What an `McpServer` is given at construction, and the handle a registration returns.
 * Types only: the server's module reads them, the entries re-export them.
 */
import type { LoggerOption } from '../session/index.js';
import type { JsonSchemaValidator } from '../protocol/json-schema-validator.js';
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';
import type { CacheHints } from './cache-hints.js';
import type { ChangeBus } from './change-bus.js';
import type { RateLimitOptions } from './rate-limit.js';
import type { RequestStateCodec } from './request-state.js';
import type { TaskOptions } from './task-runtime.js';

export interface ServerOptions {
  /** Guidance for the model about how to use this server. */
  instructions?: string;
  /** Protocol versions to speak, oldest first (default: every revision). */
  versions?: readonly string[];
  /** Extra capabilities (`experimental`, `extensions`), merged over the computed ones. */
  capabilities?: Record<string, unknown>;
  /**
   * Items per page on every list (default 1,000: clients fetch every page, so a large catalog
   * costs a round trip per page; 5,000 tools of about 2 KB each take 5 pages, about 2 MB each).
   */
  pageSize?: number;
  /** Seals MRTR requestState (default: HMAC-SHA-256 with a random per-process key). */
  requestState?: RequestStateCodec;
  requestStateTtlMs?: number;
  /** Cache hints on modern list and read results, per method if need be (default ttlMs 0, scope private). */
  cache?: CacheHints;
  /** Where change events travel between nodes (default: in process). */
  changeBus?: ChangeBus;
  /**
   * How long the server waits for the client to answer its own requests in the legacy era:
   * `ctx.elicit`, `ctx.sample` and `ctx.listRoots` (default 5 minutes, since a person may be
   * answering; `AskOptions.timeoutMs` overrides it per question) and any other
   * server-to-client request such as `ping` (default 60 s). The modern era has no
   * server-to-client requests: there the client's retry carries the answer.
   */
  timeoutMs?: number;
  /**
   * Receives handler failures, protocol warnings, store outages and (at debug) rate limit
   * refusals: a pino-compatible logger, a function, or `false` (default: stderr).
   */
  logger?: LoggerOption;
  /** Rate limits per caller, per method and per tool (default: none). */
  rateLimit?: RateLimitOptions;
  /**
   * Tasks (2025-11-25 and the `io.modelcontextprotocol/tasks` extension). They switch on
   * by themselves when a tool declares `execution.taskSupport`; options tune them.
   */
  tasks?: TaskOptions;
  /** Serves SEP-2624's interceptors extension (`INTERCEPTORS_EXTENSION`) for the named interceptors (default off). */
  interceptorsExtension?: boolean;
  /** Validates raw JSON Schema tool schemas (default: Ajv, or an interpreter where `new Function` is refused). */
  jsonSchemaValidator?: JsonSchemaValidator;
  /**
   * Scope-filtered discovery (SEP-1881): `tools/list` shows an authenticated caller only the
   * tools whose `scopes` its token holds. The others stay callable, so a call still gets the
   * `insufficient_scope` challenge a client steps up with (use `visibleTo` to hide a tool
   * outright). Default false: every caller sees every tool it may see.
   */
  scopeFilteredDiscovery?: boolean;
  /**
   * OpenTelemetry spans, metrics and trace context for every request served (default off):
   * `true` reports to the globally registered providers; see docs/observability.md. Needs the
   * optional peer `@opentelemetry/api`, loaded in the background from construction; it is
   * ready by the time `McpServer.connect` resolves.
   */
  telemetry?: TelemetrySetting;
}

/** A handle to something registered, to take it away again. */
export interface Registration {
  remove(): void;
}
