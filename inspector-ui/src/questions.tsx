// What servers ask while the page is open: elicitation forms and URLs, sampling requests
// (the playground's model answers once approved, or the person types the model's reply),
// and approvals a config's policy asks for.
import { useState } from 'preact/hooks';
import { api } from './api';
import { Contents, Json } from './content';
import { SchemaForm, initialValue } from './schema-form';
import type { Schema } from './schema-form';
import { useStore } from './store';
import { playground } from './playground-store';
import type { Question } from './store';

function answer(id: string, value: unknown): void {
  void api('answer', { id, answer: value });
}

function ElicitForm({ q }: { q: Question }) {
  const schema = (q.request.schema ?? { type: 'object' }) as Schema;
  const [value, setValue] = useState<Record<string, unknown>>(
    () => (initialValue(schema, schema) ?? {}) as Record<string, unknown>,
  );
  const errors = (q.request.errors ?? []) as string[];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        answer(q.id, { action: 'accept', content: value });
      }}
    >
      <p class="message-text">{String(q.request.message ?? '')}</p>
      {errors.length > 0 && <div class="result error">{errors.join('; ')}</div>}
      <SchemaForm schema={schema} value={value} onChange={setValue} />
      <div class="buttons">
        <button class="primary" type="submit" data-answer="accept">
          Accept
        </button>
        <button type="button" data-answer="decline" onClick={() => answer(q.id, { action: 'decline' })}>
          Decline
        </button>
        <button type="button" data-answer="cancel" onClick={() => answer(q.id, { action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ElicitUrl({ q }: { q: Question }) {
  const url = String(q.request.url ?? '');
  const warnings = (q.request.warnings ?? []) as string[];
  return (
    <div>
      <p class="message-text">{String(q.request.message ?? '')}</p>
      <p>
        Open <strong>{String(q.request.domain ?? '')}</strong>: <code class="url">{url}</code>
      </p>
      {warnings.map((w) => (
        <div class="tag bad">{w}</div>
      ))}
      <div class="buttons">
        <button
          class="primary"
          data-answer="open"
          onClick={() => {
            window.open(url, '_blank', 'noopener,noreferrer');
            answer(q.id, true);
          }}
        >
          Open and accept
        </button>
        <button data-answer="decline" onClick={() => answer(q.id, false)}>
          Decline
        </button>
      </div>
    </div>
  );
}

function Sampling({ q }: { q: Question }) {
  const params = (q.request.params ?? {}) as {
    messages?: Array<{ role: string; content: unknown }>;
    systemPrompt?: string;
    maxTokens?: number;
  };
  const [text, setText] = useState('');
  const model = playground.model;
  return (
    <>
      {params.systemPrompt && (
        <p>
          <span class="tag">system</span> {params.systemPrompt}
        </p>
      )}
      {(params.messages ?? []).map((m) => (
        <div class={`message ${m.role}`}>
          <span class="tag">{m.role}</span>
          <Contents
            items={(Array.isArray(m.content) ? m.content : [m.content]) as Array<Record<string, unknown>>}
          />
        </div>
      ))}
      {model !== undefined && <ModelSampling q={q} model={model} />}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          answer(q.id, {
            action: 'approve',
            result: {
              role: 'assistant',
              content: { type: 'text', text },
              model: 'inspector',
              stopReason: 'endTurn',
            },
          });
        }}
      >
        <p class="muted">maxTokens {String(params.maxTokens ?? '')}. Type the model's reply:</p>
        <textarea
          rows={3}
          data-testid="sampling-reply"
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        <div class="buttons">
          <button class={model === undefined ? 'primary' : ''} type="submit" data-answer="send">
            Send reply
          </button>
          <button type="button" data-answer="reject" onClick={() => answer(q.id, { action: 'deny' })}>
            Reject
          </button>
        </div>
      </form>
    </>
  );
}

/** Approve (the model answers), Edit (the request, as JSON, first) or Decline. */
function ModelSampling({ q, model }: { q: Question; model: string }) {
  const [editing, setEditing] = useState(false);
  const [edited, setEdited] = useState(() => JSON.stringify(q.request.params ?? {}, null, 2));
  const [problem, setProblem] = useState('');
  const approve = (): void => {
    if (!editing) return answer(q.id, { action: 'approve', model });
    let params: unknown;
    try {
      params = JSON.parse(edited);
    } catch (e) {
      setProblem(`The edited request is not JSON: ${(e as Error).message}`);
      return;
    }
    answer(q.id, { action: 'approve', model, params });
  };
  return (
    <div class="sampling-model" data-testid="sampling-model">
      <p>
        Let <strong>{model}</strong> answer, and send its answer back to the server?
      </p>
      {editing && (
        <textarea
          rows={10}
          class="json-edit"
          data-testid="sampling-edit"
          aria-label="the sampling request, as JSON"
          value={edited}
          onInput={(e) => setEdited((e.target as HTMLTextAreaElement).value)}
        />
      )}
      {problem && <div class="result error">{problem}</div>}
      <div class="buttons">
        <button type="button" class="primary" data-answer="approve" onClick={approve}>
          {editing ? 'Approve the edited request' : 'Approve'}
        </button>
        <button type="button" data-answer="edit" aria-pressed={editing} onClick={() => setEditing(!editing)}>
          Edit
        </button>
        <button type="button" data-answer="decline" onClick={() => answer(q.id, { action: 'deny' })}>
          Decline
        </button>
      </div>
      <p class="muted">Or play the model yourself:</p>
    </div>
  );
}

function Approve({ q }: { q: Question }) {
  return (
    <div>
      <p>
        Run <strong>{String(q.request.tool)}</strong> (asked by {String(q.request.caller)})?
      </p>
      <Json value={q.request.arguments} />
      <div class="buttons">
        <button class="primary" data-answer="once" onClick={() => answer(q.id, 'once')}>
          Allow once
        </button>
        <button data-answer="always" onClick={() => answer(q.id, 'always')}>
          Always
        </button>
        <button data-answer="deny" onClick={() => answer(q.id, 'deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}

const TITLES: Record<Question['kind'], string> = {
  'elicit-form': 'asks for input',
  'elicit-url': 'asks you to open a URL',
  sampling: 'asks the model (sampling)',
  'approve-tool': 'needs an approval',
};

/** One pending question and its answers (the playground shows them inside the chat). */
export function QuestionCard({ q }: { q: Question }) {
  return (
    <div class="question" data-question={q.kind}>
      <h3>
        <span class="tag">{q.server}</span> {TITLES[q.kind]}
      </h3>
      {q.kind === 'elicit-form' && <ElicitForm q={q} />}
      {q.kind === 'elicit-url' && <ElicitUrl q={q} />}
      {q.kind === 'sampling' && <Sampling q={q} />}
      {q.kind === 'approve-tool' && <Approve q={q} />}
    </div>
  );
}

/** The pending questions, shown above every screen until answered. */
export function Questions() {
  const s = useStore();
  if (s.questions.length === 0) return null;
  return (
    <div class="questions" data-testid="questions">
      {s.questions.map((q) => (
        <QuestionCard q={q} key={q.id} />
      ))}
    </div>
  );
}
