import type * as JoseModule from 'jose';

let loading: Promise<typeof JoseModule> | undefined;

/**
 * jose (about 46 modules) loads with the first operation that needs it, not with
 * `mcpkit/auth`: every use of it is asynchronous already, and most importers never sign
 * or verify a JWT.
 */
export function loadJose(): Promise<typeof JoseModule> {
  return (loading ??= import('jose'));
}
