import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import type { Params } from '../jsonrpc/index.js';
import { merged, withField } from '../jsonrpc/with-field.js';

/**
 * The largest propagation value read from a peer's `_meta` (W3C baggage allows 8192 bytes in
 * all; a traceparent is 55 characters). Anything larger is ignored, never an error.
 */
export const MAX_PROPAGATION_VALUE = 8192;

/**
 * Propagator keys we write: plain names only (`traceparent`, `tracestate`, `baggage`, `b3`),
 * so a propagator can never write a reserved, prefixed `_meta` key such as
 * `io.modelcontextprotocol/protocolVersion`.
 */
const PLAIN_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Reads propagation fields from a received `_meta`: strings within the cap, nothing else. */
export const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier).filter((k) => PLAIN_KEY.test(k)),
  get(carrier, key) {
    if (!PLAIN_KEY.test(key) || !Object.hasOwn(carrier, key)) return undefined;
    const v = carrier[key];
    return typeof v === 'string' && v.length <= MAX_PROPAGATION_VALUE ? v : undefined;
  },
};

/** Writes propagation fields into a fresh object (never the caller's `_meta`). */
export const metaSetter: TextMapSetter<Record<string, unknown>> = {
  set(carrier, key, value) {
    if (PLAIN_KEY.test(key)) carrier[key] = value;
  },
};

/** The `_meta` of received params, when it is an object. */
export function metaOf(params: Params | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/**
 * Params with `fields` added to their `_meta`, as new objects: the old ones may be the
 * caller's (or frozen, like a modern client's shared `_meta`). Fields already there win.
 */
export function withMetaFields(params: Params | undefined, fields: Record<string, unknown>): Params {
  const own = metaOf(params);
  // withField and merged, not spreads: see with-field.ts (Node 20).
  return withField(params ?? {}, '_meta', own === undefined ? fields : merged(fields, own));
}
