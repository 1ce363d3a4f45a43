/**
 * How the host answers what servers ask of it: sampling (a person approves, and may edit,
 * every request and every answer), elicitation (forms validated against their schema;
 * URLs opened only after consent, only http(s), never through a shell) and roots (each
 * server is told only its own).
 */
import type { ClientHandlers, HandlerContext } from '../../client/index.js';
import { WireError } from '../../jsonrpc/index.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitResult,
  Root,
} from '../../protocol/types/index.js';
import { errorText } from '../errors.js';
import type { AuditEntry } from '../policy/audit.js';
import { validateForm } from '../ui/form-schema.js';
import { blocksOf } from '../llm/llm.js';
import type { LlmRouter } from '../llm/llm-router.js';
import type { RateLimiter } from '../policy/policy.js';
import type { HostUi } from '../ui/ui.js';

/** What the answers need from the host. */
export interface ServerRequestDeps {
  ui(): Promise<HostUi>;
  router: LlmRouter;
  audit(entry: AuditEntry): void;
  rootsOf(server: string): Root[];
  openUrl(url: string): Promise<void>;
  samplingLimiter(server: string): RateLimiter;
}

/** The JSON-RPC code the spec gives for "the user rejected the sampling request". */
export const USER_REJECTED = -1;

/** The client handlers for one server's connection. */
export function handlersFor(server: string, deps: ServerRequestDeps): ClientHandlers {
  return {
    sampling: { handler: (params, ctx) => sample(server, params, ctx, deps), tools: true },
    elicitation: { handler: (params, ctx) => elicit(server, params, ctx, deps), form: true, url: true },
    roots: () => {
      const roots = deps.rootsOf(server);
      deps.audit(
        entry('roots', server, 'allowed', { outcome: 'ok', reason: `${roots.length} root(s) told` }),
      );
      return { roots };
    },
  };
}

function entry(
  kind: AuditEntry['kind'],
  server: string,
  decision: AuditEntry['decision'],
  extra: Partial<AuditEntry>,
): AuditEntry {
  return {
    time: new Date().toISOString(),
    kind,
    caller: `server:${server}`,
    server,
    decision,
    outcome: 'not-run',
    ...extra,
  };
}

/** The spec's structural rules for tool results in sampling messages. */
function checkToolMessages(params: CreateMessageRequestParams): void {
  for (const m of params.messages) {
    const blocks = blocksOf(m.content);
    const results = blocks.filter((b) => b.type === 'tool_result').length;
    if (results > 0 && results !== blocks.length) {
      throw WireError.invalidParams(
        'Tool results mixed with other content: a message with tool results must hold only tool results',
      );
    }
  }
}

async function sample(
  server: string,
  params: CreateMessageRequestParams,
  ctx: HandlerContext,
  deps: ServerRequestDeps,
): Promise<CreateMessageResult> {
  const started = Date.now();
  const limit = deps.samplingLimiter(server).take();
  if (!limit.ok) {
    deps.audit(entry('sampling', server, 'rate-limited', { reason: `retry in ${limit.retryInMs} ms` }));
    throw new WireError(
      USER_REJECTED,
      `Too many sampling requests from this server; retry in ${Math.ceil(limit.retryInMs / 1000)} s`,
    );
  }
  checkToolMessages(params);
  if (!deps.router.available) {
    deps.audit(entry('sampling', server, 'refused', { reason: 'no LLM configured' }));
    throw new WireError(USER_REJECTED, 'This host has no LLM configured for sampling');
  }
  const ui = await deps.ui();
  const proposed = deps.router.modelFor(params.modelPreferences)!;
  const review = await ui.reviewSampling({ server, params, model: proposed }, ctx.signal);
  if (review.action !== 'approve') {
    deps.audit(
      entry('sampling', server, 'denied', { reason: review.reason ?? 'the user rejected the request' }),
    );
    throw new WireError(USER_REJECTED, 'User rejected sampling request');
  }
  const edited = review.params ?? params;
  const target = review.model ?? proposed;
  checkToolMessages(edited);
  const runStarted = Date.now();
  let result: CreateMessageResult;
  try {
    const { model, provider } = await deps.router.choose(edited.modelPreferences, target);
    result = await provider.complete(model, edited, { signal: ctx.signal });
  } catch (e) {
    deps.audit(
      entry('sampling', server, 'approved', {
        target,
        outcome: 'error',
        error: errorText(e),
        durationMs: Date.now() - runStarted,
      }),
    );
    throw new WireError(-32603, `The model call failed: ${errorText(e)}`);
  }
  const answer = await ui.reviewSamplingResult({ server, params: edited, result }, ctx.signal);
  if (answer.action !== 'approve') {
    deps.audit(
      entry('sampling', server, 'denied', {
        target,
        reason: 'the user rejected the answer',
        durationMs: Date.now() - runStarted,
      }),
    );
    throw new WireError(USER_REJECTED, 'User rejected the sampling response');
  }
  deps.audit(
    entry('sampling', server, 'approved', {
      target,
      outcome: 'ok',
      durationMs: Date.now() - runStarted,
      reason:
        review.params || review.model ? 'approved with edits' : `approved after ${Date.now() - started} ms`,
    }),
  );
  return answer.result ?? result;
}

async function elicit(
  server: string,
  params: ElicitRequestParams,
  ctx: HandlerContext,
  deps: ServerRequestDeps,
): Promise<ElicitResult> {
  const ui = await deps.ui();
  if (params.mode === 'url') {
    const url = new URL(params.url);
    const warnings = urlWarnings(url);
    const ok = await ui.confirmUrl(
      { server, message: params.message, url: params.url, domain: url.hostname, warnings },
      ctx.signal,
    );
    if (!ok) {
      deps.audit(
        entry('elicitation', server, 'denied', {
          target: url.origin,
          reason: 'the user did not open the URL',
        }),
      );
      return { action: 'decline' };
    }
    try {
      await deps.openUrl(url.href);
    } catch (e) {
      deps.audit(
        entry('elicitation', server, 'approved', {
          target: url.origin,
          outcome: 'error',
          error: errorText(e),
        }),
      );
      return { action: 'cancel' };
    }
    deps.audit(entry('elicitation', server, 'approved', { target: url.origin, outcome: 'ok' }));
    return { action: 'accept' };
  }
  const form = params as ElicitRequestFormParams;
  const schema = form.requestedSchema;
  let errors: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await ui.elicitForm(
      { server, message: form.message, schema, ...(errors.length ? { errors } : {}) },
      ctx.signal,
    );
    if (result.action !== 'accept') {
      deps.audit(entry('elicitation', server, 'denied', { reason: `the user chose ${result.action}` }));
      return { action: result.action };
    }
    errors = validateForm(schema, withDefaults(schema, result.content ?? {}));
    if (errors.length === 0) {
      deps.audit(
        entry('elicitation', server, 'approved', {
          outcome: 'ok',
          argumentBytes: JSON.stringify(result.content ?? {}).length,
        }),
      );
      return { action: 'accept', content: result.content ?? {} };
    }
  }
  deps.audit(
    entry('elicitation', server, 'refused', {
      outcome: 'error',
      error: `invalid form: ${errors.join('; ')}`,
    }),
  );
  return { action: 'cancel' };
}

/** The content with schema defaults filled in (the client adds them on the wire too). */
function withDefaults(
  schema: ElicitRequestFormParams['requestedSchema'],
  content: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...content };
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (!Object.hasOwn(out, name) && field.default !== undefined) out[name] = field.default;
  }
  return out;
}

/**
 * Reasons to look twice at a URL before opening it: punycode or non-ASCII host names
 * (look-alike domains), raw IP addresses, plain http to a non-local host, very long URLs.
 */
export function urlWarnings(url: URL): string[] {
  const out: string[] = [];
  const host = url.hostname;
  if (host.split('.').some((label) => label.startsWith('xn--')))
    out.push(`the domain ${host} uses punycode: it may imitate another domain`);
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('['))
    out.push('the address is a raw IP, not a domain name');
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  if (url.protocol === 'http:' && !local) out.push('the connection is not encrypted (http, not https)');
  if (url.href.length > 512) out.push(`the URL is unusually long (${url.href.length} characters)`);
  return out;
}
