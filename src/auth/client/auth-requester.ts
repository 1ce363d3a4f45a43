/**
 * The transports' requester, with the bearer token on and 401/403 recovery: the same
 * behaviour as {@link authFetch}, for transports that do not run on `fetch` (the
 * Node default of `mcpkit/http-client`). Pass the OAuth client as the transport's `auth`.
 */
import type { HttpReply, HttpRequest, HttpRequester } from '../../transports/http-client/requester.js';
import type { TokenSource } from './auth-fetch.js';
import { bearerChallengeOf } from './www-authenticate.js';

/** Waits for `work`, or rejects as soon as the request is aborted. */
function abortable<T>(work: Promise<T>, request: HttpRequest): Promise<T> {
  const cancel = request.cancel;
  if (cancel.aborted) return Promise.reject(cancel.reason);
  return new Promise<T>((resolve, reject) => {
    cancel.onAbort(reject);
    work.then(
      (v) => {
        cancel.onAbort(undefined);
        resolve(v);
      },
      (e: unknown) => {
        cancel.onAbort(undefined);
        reject(e);
      },
    );
  });
}

/**
 * Wraps `inner` so that requests to the MCP server's origin carry `Authorization: Bearer`,
 * and a 401, or a 403 with `error="insufficient_scope"`, runs the authorization flow and
 * retries, at most `maxAttempts` times per request; after that the last answer is returned
 * and the transport reports it. Requests to other origins pass through without the token.
 *
 * @example
 * ```ts
 * const requester = authRequester(oauth, undiciRequester(), 3);
 * const transport = new StreamableHttpClientTransport({ url, requester });
 * ```
 */
export function authRequester(source: TokenSource, inner: HttpRequester, maxAttempts = 3): HttpRequester {
  return async (request: HttpRequest): Promise<HttpReply> => {
    if (request.url.origin !== source.serverUrl.origin) return inner(request);
    const url = request.url.href;
    let nonceRetried = false;
    for (let attempt = 0; ; attempt++) {
      const token = await abortable(source.accessToken(), request);
      let headers = request.headers;
      if (token !== undefined) {
        const proof = await abortable(
          source.proofFor?.(token, request.method, url) ?? Promise.resolve(undefined),
          request,
        );
        headers =
          proof === undefined
            ? { ...request.headers, authorization: `Bearer ${token}` }
            : { ...request.headers, authorization: `DPoP ${token}`, dpop: proof };
      }
      const reply = await inner(headers === request.headers ? request : { ...request, headers });
      const status = reply.status;
      if (source.observe?.(status, reply.headers(), url) && !nonceRetried) {
        // A nonce challenge: the same request once more, with a proof carrying the nonce.
        nonceRetried = true;
        attempt--;
        reply.discard();
        continue;
      }
      if (status !== 401 && status !== 403) return reply;
      const challenge = bearerChallengeOf(reply.headers());
      if (status === 403 && challenge?.error !== 'insufficient_scope') return reply;
      if (attempt >= maxAttempts) return reply;
      reply.discard();
      await abortable(source.recover(status, challenge, token), request);
    }
  };
}
