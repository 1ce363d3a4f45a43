// The floor of bench/runtimes.mjs as a Cloudflare Worker (bundled and served by the workerd
// launcher, test/runtimes/workerd-launcher.mjs): the same answers as on the other runtimes.
import { fetchHandler } from './runtime-floor-handler.mjs';

export default { fetch: fetchHandler };
