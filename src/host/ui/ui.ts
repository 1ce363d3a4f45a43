/**
 * The approval hook: every question the host must put to a person goes through a
 * {@link HostUi}. The terminal one (`TerminalUi`) is the default in a terminal; embedders
 * plug in their own dialogs; tests use {@link ScriptedUi}.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
  ElicitationRequestedSchema,
  Tool,
} from '../../protocol/types/index.js';
import type { ToolWarning } from '../policy/tool-inspection.js';

/** Consent to start a local server for the first time. */
export interface CommandConsentRequest {
  server: string;
  /** The exact command line, every argument quoted as needed, untruncated. */
  commandLine: string;
  command: string;
  args: readonly string[];
  cwd: string | undefined;
  /** The extra variables set for it; values of secret-looking names are masked. */
  env: ReadonlyArray<{ name: string; value: string }>;
  /** Dangerous patterns found (sudo, rm -rf, a shell, a download...). */
  warnings: readonly string[];
}

/** Why a tool needs a person's approval. */
export type ApprovalReason = 'policy' | 'new-tool' | 'changed' | 'flagged';

/** Approval of a tool call, or of a tool definition before it is offered to the model. */
export interface ToolApprovalRequest {
  server: string;
  /** The tool's exact name on its server. */
  tool: string;
  /** The name the model sees. */
  alias: string;
  /** Who wants it: `agent`, `app`, `gateway`. */
  caller: string;
  /** The call's arguments; undefined when approving a definition alone. */
  arguments: Record<string, unknown> | undefined;
  definition: Tool;
  reason: ApprovalReason;
  /** The previously approved definition, when it changed. */
  previous: Tool | undefined;
  warnings: readonly ToolWarning[];
}

/** `once`: this call; `always`: this tool for the session (pinned); `deny`: refuse. */
export type ToolApproval = 'once' | 'always' | 'deny';

/** A server's sampling request, before anything is sent to a model. */
export interface SamplingReviewRequest {
  server: string;
  params: CreateMessageRequestParams;
  /** The model the host would use. */
  model: string;
}

/** Approve as is, approve an edited request (or another model), or refuse. */
export type SamplingReview =
  | { action: 'approve'; params?: CreateMessageRequestParams; model?: string }
  | { action: 'deny'; reason?: string };

/** The model's answer, before the server sees it. */
export interface SamplingResultReviewRequest {
  server: string;
  params: CreateMessageRequestParams;
  result: CreateMessageResult;
}

export type SamplingResultReview = { action: 'approve'; result?: CreateMessageResult } | { action: 'deny' };

/** A form a server wants filled in. */
export interface FormRequest {
  server: string;
  message: string;
  schema: ElicitationRequestedSchema;
  /** Problems with the previous answer, when the form is asked again. */
  errors?: readonly string[];
}

/** A URL a server wants the user to open. */
export interface UrlConsentRequest {
  server: string;
  message: string;
  /** The full URL, to show untruncated. */
  url: string;
  /** The host name to highlight (punycode decoded where possible). */
  domain: string;
  warnings: readonly string[];
}

/** A completion a person types (the interactive provider). */
export interface CompletionRequest {
  model: string;
  params: CreateMessageRequestParams;
}

/**
 * Everything the host asks a person. Each method may take as long as the person needs;
 * `signal` fires when the question is no longer relevant (the request was cancelled).
 */
export interface HostUi {
  confirmCommand(request: CommandConsentRequest, signal?: AbortSignal): Promise<boolean>;
  approveTool(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApproval>;
  reviewSampling(request: SamplingReviewRequest, signal?: AbortSignal): Promise<SamplingReview>;
  reviewSamplingResult(
    request: SamplingResultReviewRequest,
    signal?: AbortSignal,
  ): Promise<SamplingResultReview>;
  elicitForm(request: FormRequest, signal?: AbortSignal): Promise<ElicitResult>;
  confirmUrl(request: UrlConsentRequest, signal?: AbortSignal): Promise<boolean>;
  typeCompletion(request: CompletionRequest, signal?: AbortSignal): Promise<CreateMessageResult>;
  /** Why an approval was refused, when the UI knows better than "the user did not approve". */
  explainRefusal?(request: ToolApprovalRequest): string | undefined;
}

type Answer<R, A> = A | ((request: R) => A | Promise<A>);

/** What a {@link ScriptedUi} answers; anything left out is refused. */
export interface ScriptedAnswers {
  confirmCommand?: Answer<CommandConsentRequest, boolean>;
  approveTool?: Answer<ToolApprovalRequest, ToolApproval>;
  reviewSampling?: Answer<SamplingReviewRequest, SamplingReview>;
  reviewSamplingResult?: Answer<SamplingResultReviewRequest, SamplingResultReview>;
  elicitForm?: Answer<FormRequest, ElicitResult>;
  confirmUrl?: Answer<UrlConsentRequest, boolean>;
  typeCompletion?: Answer<CompletionRequest, CreateMessageResult>;
}

/** One question a scripted UI was asked. */
export type AskedQuestion = {
  [K in keyof ScriptedAnswers]-?: { kind: K; request: Parameters<HostUi[K]>[0] };
}[keyof ScriptedAnswers];

/**
 * A UI with answers written in advance: fixed values or functions of the request. It
 * records every question in `asked`. Unscripted questions are answered "no": a command is
 * not started, a call is denied, a sampling request refused, a form declined, a URL not
 * opened. (The review of a model's answer defaults to approve: its request was approved.)
 *
 * @example
 * ```ts
 * const ui = new ScriptedUi({ confirmCommand: true, approveTool: (r) => (r.tool === 'read_file' ? 'once' : 'deny') });
 * const host = new Host(config, { ui });
 * ```
 */
export class ScriptedUi implements HostUi {
  readonly asked: AskedQuestion[] = [];
  constructor(public answers: ScriptedAnswers = {}) {}

  private async answer<K extends keyof ScriptedAnswers>(
    kind: K,
    request: Parameters<HostUi[K]>[0],
    fallback: unknown,
  ): Promise<never> {
    this.asked.push({ kind, request } as AskedQuestion);
    const a = this.answers[kind] as unknown;
    const value = typeof a === 'function' ? await (a as (r: unknown) => unknown)(request) : a;
    return (value === undefined ? fallback : value) as never;
  }

  confirmCommand(request: CommandConsentRequest): Promise<boolean> {
    return this.answer('confirmCommand', request, false);
  }
  approveTool(request: ToolApprovalRequest): Promise<ToolApproval> {
    return this.answer('approveTool', request, 'deny');
  }
  reviewSampling(request: SamplingReviewRequest): Promise<SamplingReview> {
    return this.answer('reviewSampling', request, { action: 'deny' });
  }
  reviewSamplingResult(request: SamplingResultReviewRequest): Promise<SamplingResultReview> {
    return this.answer('reviewSamplingResult', request, { action: 'approve' });
  }
  elicitForm(request: FormRequest): Promise<ElicitResult> {
    return this.answer('elicitForm', request, { action: 'decline' });
  }
  confirmUrl(request: UrlConsentRequest): Promise<boolean> {
    return this.answer('confirmUrl', request, false);
  }
  typeCompletion(request: CompletionRequest): Promise<CreateMessageResult> {
    return this.answer('typeCompletion', request, {
      role: 'assistant',
      content: { type: 'text', text: '' },
      model: request.model,
      stopReason: 'endTurn',
    });
  }
}
