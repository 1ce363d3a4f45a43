/**
 * What a client connection is made of besides the `Client` itself: the parts that load with
 * the first connection rather than with `mcpkit`, its `Session`, and how its close is read.
 * Internal.
 */
import { LocalError } from '../jsonrpc/index.js';
import { Session, clientRole } from '../session/index.js';
import type { Implementation, SessionLogger, SessionObserver } from '../session/index.js';
import type { InterceptedRequest, Interceptor } from '../session/interceptors.js';
import type { SubscriptionHub } from './subscriptions.js';
import type { ClientTaskReceiver } from './task-receiver.js';
import type { ResubscribeOptions } from './types.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { TelemetrySetting } from '../telemetry/telemetry-options.js';

/**
 * The receiver of task-augmented server requests, once loaded: only clients that set
 * `taskRequests` need it, so it loads with the first such connection, not with `mcpkit`.
 */
let TaskReceiverClass: typeof ClientTaskReceiver | undefined;

/**
 * The subscriptions module, once loaded: with the first connection rather than with
 * `mcpkit`, and before the connection opens, so that subscribing sends at once as before.
 */
let subscriptionsModule: typeof import('./subscriptions.js') | undefined;

export interface ConnectionParts {
  readonly SubscriptionHub: typeof SubscriptionHub;
  readonly defaultResubscribe: Required<ResubscribeOptions>;
  /** Loaded only for a client that takes task-augmented requests. */
  readonly TaskReceiver: typeof ClientTaskReceiver | undefined;
}

function partsOf(taskRequests: boolean): ConnectionParts {
  const { SubscriptionHub, DEFAULT_RESUBSCRIBE } = subscriptionsModule!;
  return {
    SubscriptionHub,
    defaultResubscribe: DEFAULT_RESUBSCRIBE,
    TaskReceiver: taskRequests ? TaskReceiverClass : undefined,
  };
}

/**
 * The parts a connection needs, loading those not loaded yet. Synchronous once they are, so
 * that a later `connect` goes from its checks to its session without yielding.
 */
export function connectionParts(taskRequests: boolean): ConnectionParts | Promise<ConnectionParts> {
  if (subscriptionsModule && (!taskRequests || TaskReceiverClass)) return partsOf(taskRequests);
  return (async () => {
    if (taskRequests) TaskReceiverClass ??= (await import('./task-receiver.js')).ClientTaskReceiver;
    subscriptionsModule ??= await import('./subscriptions.js');
    return partsOf(taskRequests);
  })();
}

/** The settings of a client's session (a `ClientConfig` has them). */
export interface ClientSessionSettings {
  readonly capabilities: Record<string, unknown>;
  readonly versions: readonly string[] | undefined;
  readonly timeoutMs: number | undefined;
  readonly maxTotalTimeoutMs: number | undefined;
  readonly logger: SessionLogger | undefined;
}

/** The client end's session, with only the options the client was given. */
export function clientSession(
  info: Implementation,
  o: ClientSessionSettings,
  observer: SessionObserver | undefined,
  interceptors?: readonly Interceptor<InterceptedRequest>[],
): Session {
  return new Session({
    role: clientRole,
    info,
    capabilities: o.capabilities,
    ...(o.versions ? { versions: o.versions } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: o.maxTotalTimeoutMs } : {}),
    ...(o.logger ? { logger: o.logger } : {}),
    ...(observer ? { observer } : {}),
    ...(interceptors ? { interceptors } : {}),
  });
}

/**
 * Loads the telemetry for a client given `telemetry` (with its first connection, so a client
 * without it never loads `@opentelemetry/api` or mcpkit's telemetry module).
 */
export async function loadClientTelemetry(setting: TelemetrySetting): Promise<Telemetry> {
  const { createTelemetry } = await import('../telemetry/telemetry.js');
  return createTelemetry(setting);
}

/** What open subscriptions fail with when the connection closes; none after `close()`. */
export function connectionClosed(error: Error | undefined): LocalError | undefined {
  return error
    ? new LocalError('ConnectionClosed', `The connection closed: ${error.message}`, { cause: error })
    : undefined;
}

/** Whether an error (or its cause chain) says the server ended our HTTP session. */
export function sessionExpired(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if ((e as { sessionExpired?: unknown }).sessionExpired === true) return true;
  }
  return false;
}
