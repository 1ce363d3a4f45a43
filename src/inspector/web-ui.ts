/**
 * The host's questions (elicitation forms, URLs to open, sampling requests) put to the
 * page instead of a terminal: each becomes a pending question the page lists and answers
 * over the API. A question whose request is cancelled disappears from the page.
 */
import type {
  CommandConsentRequest,
  CompletionRequest,
  FormRequest,
  HostUi,
  SamplingResultReview,
  SamplingResultReviewRequest,
  SamplingReview,
  SamplingReviewRequest,
  ToolApproval,
  ToolApprovalRequest,
  UrlConsentRequest,
} from '../host/index.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
} from '../protocol/types/index.js';

/** What the page is asked. */
export type QuestionKind = 'elicit-form' | 'elicit-url' | 'sampling' | 'approve-tool';

/** A question waiting for the page. */
export interface Question {
  id: string;
  kind: QuestionKind;
  server: string;
  time: string;
  request: unknown;
}

interface Pending {
  question: Question;
  resolve(answer: unknown): void;
}

/** The model id of the person typing a sampling reply in the page (the interactive provider). */
export const TYPED_MODEL = 'you (typed in the inspector)';

/** Why an edited sampling request cannot be sent, or undefined when it has the shape of one. */
function samplingParamsProblem(p: unknown): string | undefined {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return 'is not a JSON object';
  const o = p as Record<string, unknown>;
  if (!Array.isArray(o.messages) || o.messages.length === 0) return 'has no "messages"';
  for (const m of o.messages as unknown[]) {
    const r = (m as { role?: unknown } | null)?.role;
    if ((r !== 'user' && r !== 'assistant') || typeof (m as { content?: unknown }).content !== 'object')
      return 'has a message without a "role" (user or assistant) and "content"';
  }
  if (typeof o.maxTokens !== 'number' || !Number.isInteger(o.maxTokens) || o.maxTokens < 1)
    return 'needs "maxTokens", a positive whole number';
  return undefined;
}

/** Most questions kept waiting at once; more are refused (a server flooding the page). */
const MAX_PENDING = 50;

/**
 * A {@link HostUi} answered from the web page. The person at the page launched the
 * inspector on this target, so starting its command needs no second consent.
 * Sampling is answered by a person typing the model's reply, so the review of the
 * request and the typed reply are one question.
 */
export class WebUi implements HostUi {
  /** Called when a question appears or goes (answered or cancelled). */
  onchange: ((change: { added?: Question; removed?: string }) => void) | undefined;
  /** Told each model answer to a server's sampling request, before it is sent back. */
  onsampled: ((review: SamplingResultReviewRequest) => void) | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Typed sampling replies, keyed by the request they answer, for {@link typeCompletion}. */
  private readonly replies = new WeakMap<CreateMessageRequestParams, CreateMessageResult>();
  private next = 1;

  /** The questions waiting, oldest first. */
  questions(): Question[] {
    return [...this.pending.values()].map((p) => p.question);
  }

  /** Answers a question; false when there is no such question (answered, cancelled, unknown). */
  answer(id: string, answer: unknown): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    this.pending.delete(id);
    this.onchange?.({ removed: id });
    p.resolve(answer);
    return true;
  }

  /** Refuses every waiting question (the inspector is closing). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.answer(id, undefined);
  }

  private ask(kind: QuestionKind, server: string, request: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.pending.size >= MAX_PENDING) return Promise.resolve(undefined);
    if (signal?.aborted) return Promise.resolve(undefined);
    const id = `q${this.next++}`;
    const question: Question = { id, kind, server, time: new Date().toISOString(), request };
    return new Promise((resolve) => {
      this.pending.set(id, { question, resolve });
      signal?.addEventListener('abort', () => this.answer(id, undefined), { once: true });
      this.onchange?.({ added: question });
    });
  }

  async confirmCommand(_request: CommandConsentRequest): Promise<boolean> {
    return true;
  }

  async approveTool(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApproval> {
    // Only a config whose policy says `ask` for a tool gets here: the inspector allows the rest.
    const a = await this.ask('approve-tool', request.server, request, signal);
    return a === 'once' || a === 'always' ? a : 'deny';
  }

  async reviewSampling(request: SamplingReviewRequest, signal?: AbortSignal): Promise<SamplingReview> {
    const a = (await this.ask('sampling', request.server, request, signal)) as
      { action?: string; result?: CreateMessageResult; model?: unknown; params?: unknown } | undefined;
    const deny: SamplingReview = { action: 'deny', reason: 'declined in the inspector' };
    if (a?.action !== 'approve') return deny;
    if (a.result) {
      // Named, so a configured model that the request's hints would pick does not answer instead.
      this.replies.set(request.params, a.result);
      return { action: 'approve', model: TYPED_MODEL };
    }
    // Approved for a configured model to answer (the playground's), as sent or as edited.
    if (typeof a.model !== 'string' || a.model === '' || a.model === TYPED_MODEL) return deny;
    if (a.params === undefined) return { action: 'approve', model: a.model };
    const problem = samplingParamsProblem(a.params);
    if (problem) return { action: 'deny', reason: `the edited request ${problem}` };
    return { action: 'approve', model: a.model, params: a.params as CreateMessageRequestParams };
  }

  async reviewSamplingResult(request: SamplingResultReviewRequest): Promise<SamplingResultReview> {
    try {
      this.onsampled?.(request);
    } catch {
      // a listener must not refuse the answer
    }
    return { action: 'approve' };
  }

  async typeCompletion(request: CompletionRequest): Promise<CreateMessageResult> {
    const reply = this.replies.get(request.params);
    if (!reply) throw new Error('No reply was typed for this sampling request');
    return reply;
  }

  async elicitForm(request: FormRequest, signal?: AbortSignal): Promise<ElicitResult> {
    const a = (await this.ask('elicit-form', request.server, request, signal)) as ElicitResult | undefined;
    if (a?.action === 'accept') return { action: 'accept', content: a.content ?? {} };
    return { action: a?.action === 'decline' ? 'decline' : 'cancel' };
  }

  async confirmUrl(request: UrlConsentRequest, signal?: AbortSignal): Promise<boolean> {
    // The page opens the URL itself (a new tab) when the person agrees; see InspectorHost.
    return (await this.ask('elicit-url', request.server, request, signal)) === true;
  }
}
