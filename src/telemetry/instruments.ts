import type { Attributes, Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';

/** The bucket boundaries the MCP conventions advise for every duration (seconds). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** One side's instruments: the client's (what we asked) or the server's (what we were asked). */
export interface SideInstruments {
  /** `mcp.{client,server}.operation.duration` (s). */
  readonly operation: Histogram;
  /** `mcp.{client,server}.operation.errors`: failed operations, by `error.type`. */
  readonly errors: Counter;
  /** `mcp.{client,server}.request.active`: requests in flight. */
  readonly active: UpDownCounter;
  /** `mcp.{client,server}.session.duration` (s). */
  readonly session: Histogram;
  /** `mcp.{client,server}.session.active`: open sessions. */
  readonly sessions: UpDownCounter;
}

export interface Instruments {
  readonly client: SideInstruments;
  readonly server: SideInstruments;
}

function side(meter: Meter, which: 'client' | 'server'): SideInstruments {
  const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
  return {
    operation: meter.createHistogram(`mcp.${which}.operation.duration`, {
      unit: 's',
      description:
        which === 'client'
          ? 'Duration of MCP requests and notifications sent, until the answer arrived.'
          : 'Duration of MCP requests and notifications received, until the answer was sent.',
      advice,
    }),
    errors: meter.createCounter(`mcp.${which}.operation.errors`, {
      unit: '{operation}',
      description: `MCP operations that failed, as the ${which} saw them, by error.type.`,
    }),
    active: meter.createUpDownCounter(`mcp.${which}.request.active`, {
      unit: '{request}',
      description: `MCP requests in flight on the ${which} side.`,
    }),
    session: meter.createHistogram(`mcp.${which}.session.duration`, {
      unit: 's',
      description: `Duration of MCP sessions as observed on the MCP ${which}.`,
      advice,
    }),
    sessions: meter.createUpDownCounter(`mcp.${which}.session.active`, {
      unit: '{session}',
      description: `Open MCP sessions on the ${which} side.`,
    }),
  };
}

export function createInstruments(meter: Meter): Instruments {
  return { client: side(meter, 'client'), server: side(meter, 'server') };
}

/** Attributes for the in-flight counter: the method only (its +1 and -1 must match). */
export function methodOnly(common: Attributes): Attributes {
  return { 'mcp.method.name': common['mcp.method.name'] };
}
