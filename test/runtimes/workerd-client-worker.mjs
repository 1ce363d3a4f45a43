// mcpkit's client as a Cloudflare Worker, so the runtime suite checks it inside workerd as
// client-fixture.mjs does on Node, Bun and Deno: `GET /run?url=<server>/mcp&eras=modern,legacy`
// runs client-summary.mjs once per era, in turn, and answers the summaries as one JSON array.
// Bundled by workerd-launcher.mjs with the workerd/worker/browser conditions (so
// `mcpkit/http-client` is its fetch build) and run without nodejs_compat; its outbound
// fetches may reach loopback (the config's network service allows local addresses).
import { summarise } from './client-summary.mjs';

export default {
  /** @param {Request} request */
  async fetch(request) {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname !== '/run') return new Response('not found: GET /run?url=...&eras=...', { status: 404 });
    const url = searchParams.get('url') ?? undefined;
    const eras = (searchParams.get('eras') ?? 'auto').split(',');
    const summaries = [];
    for (const era of eras) summaries.push(await summarise(url, era));
    return Response.json(summaries);
  },
};
