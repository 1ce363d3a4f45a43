/**
 * The life of SSE streams after their first response: legacy resumption with
 * `Last-Event-ID`, the standalone GET stream, and the DELETE that ends a session. Internal.
 */
import { LocalError } from '../../jsonrpc/index.js';
import { displayUrl, requestFailed } from './errors.js';
import { StreamCursor } from './exchange.js';
import type { Exchange } from './exchange.js';
import type { HttpClientCore } from './http-client-core.js';
import { Cancel, bodyExcerpt, isOk, mediaType, replyError } from './requester.js';

const DELETE_TIMEOUT_MS = 3000;

/**
 * A stream ended, cleanly or not. An exchange that got all its responses is done; one
 * still owed something resumes (legacy, when the server gave event ids) or fails. The
 * standalone stream reconnects.
 */
export function streamEnded(
  core: HttpClientCore,
  cursor: StreamCursor,
  ex: Exchange | undefined,
  error: unknown,
): void {
  if (core.state !== 'open') return;
  if (!ex) {
    if (cursor === core.standalone) resumeLater(core, cursor, undefined, error);
    return;
  }
  if (ex.settled) return;
  if (ex.owed.size === 0) return core.settle(ex);
  if (core.era.resumesStreams && cursor.lastEventId !== undefined) {
    return resumeLater(core, cursor, ex, error);
  }
  const detail = `The response stream ended before the server answered ${ex.describe()}`;
  core.settle(
    ex,
    error instanceof LocalError ? error : new LocalError('ConnectionClosed', detail, { cause: error }),
  );
}

/** Schedules a reconnection after the server's `retry:` (or the default), or gives up. */
function resumeLater(
  core: HttpClientCore,
  cursor: StreamCursor,
  ex: Exchange | undefined,
  error: unknown,
): void {
  if (error !== undefined) cursor.lastError = error;
  if (cursor.attempts >= core.maxReconnects) {
    const what = ex ? `the response stream of ${ex.describe()}` : 'the standalone SSE stream';
    const giveUp = new LocalError(
      'ConnectionClosed',
      `Gave up reconnecting ${what} after ${cursor.attempts} attempts`,
      { cause: cursor.lastError },
    );
    if (ex) return core.settle(ex, giveUp);
    core.standalone = undefined;
    return core.warn(giveUp.message, cursor.lastError);
  }
  cursor.attempts++;
  cursor.timer = setTimeout(() => {
    cursor.timer = undefined;
    core.waiting.delete(cursor);
    void reconnect(core, cursor, ex);
  }, cursor.retryMs ?? core.defaultRetryMs);
  core.waiting.add(cursor);
}

/** Legacy: opens the standalone GET stream (once `notifications/initialized` went through). */
export function openStandalone(core: HttpClientCore): void {
  if (!core.era.opensStandalone || core.standalone || core.state !== 'open') return;
  core.standalone = new StreamCursor();
  void reconnect(core, core.standalone, undefined);
}

/** A GET: the standalone stream, or a resumption with `Last-Event-ID`. */
async function reconnect(
  core: HttpClientCore,
  cursor: StreamCursor,
  ex: Exchange | undefined,
): Promise<void> {
  if (core.state !== 'open' || ex?.settled) return;
  const controller = core.track(cursor, true);
  let error: unknown;
  try {
    const headers = await core.headersFor('GET');
    if (cursor.lastEventId !== undefined) headers['last-event-id'] = cursor.lastEventId;
    const reply = await core.request('GET', headers, controller);
    if (isOk(reply) && mediaType(reply) === 'text/event-stream') {
      error = await core.consume(cursor, reply);
    } else {
      const body = await bodyExcerpt(reply);
      const failure = replyError('GET', core.url, reply, body);
      if (reply.status === 404 && headers['mcp-session-id'] !== undefined) return core.expire();
      if (!ex) {
        // No standalone stream: 405 is the server saying so; anything else is worth a line.
        if (cursor === core.standalone) core.standalone = undefined;
        if (reply.status !== 405) core.warn('The server refused the standalone SSE stream', failure);
        return;
      }
      if (reply.status === 405) return core.settle(ex, failure);
      error = failure;
    }
  } catch (e) {
    error = requestFailed('GET', core.url, e);
  } finally {
    core.untrack(cursor, controller);
  }
  streamEnded(core, cursor, ex, error);
}

/** Legacy close: DELETE with the session id. 405 (not allowed) is fine; failures are logged. */
export async function deleteSession(core: HttpClientCore): Promise<void> {
  const controller = new Cancel();
  core.live.add(controller);
  const timer = setTimeout(() => controller.abort(), DELETE_TIMEOUT_MS);
  try {
    const reply = await core.request('DELETE', await core.headersFor('DELETE'), controller);
    await bodyExcerpt(reply);
    if (!isOk(reply) && reply.status !== 405) {
      core.warn(`DELETE ${displayUrl(core.url)} answered HTTP ${reply.status}`);
    }
  } catch (e) {
    core.warn(`DELETE ${displayUrl(core.url)} failed`, e);
  } finally {
    clearTimeout(timer);
    core.live.delete(controller);
  }
}
