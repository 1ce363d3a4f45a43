// The playground: a chat with the servers' tools through the configured model (the host's
// agent loop runs on the inspector's side). Tool calls, their results (and MCP App views),
// the questions servers ask and the model's answers to sampling requests appear inline.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api';
import { Json, ToolResult } from './content';
import { AppSlot } from './app-slot';
import { QuestionCard } from './questions';
import { useStore } from './store';
import type { CallRecord } from './store';
import { playground } from './playground-store';
import type { PlaygroundEntry } from './playground-store';
import { uiResourceOf } from './tools';

function ToolEntry({ entry, args }: { entry: PlaygroundEntry; args: Record<string, unknown> }) {
  const s = useStore();
  const tool = s.catalog.tools.find((t) => t.server === entry.server && t.name === entry.tool);
  const appUri = tool && entry.result ? uiResourceOf(tool.definition) : undefined;
  const call: CallRecord = {
    id: `pg-${entry.seq}`,
    server: entry.server ?? '',
    tool: entry.tool ?? entry.name ?? '',
    args,
    started: entry.time,
    ...(entry.result ? { result: entry.result } : {}),
  };
  return (
    <div class="pg-tool" data-testid="pg-tool" data-tool={entry.tool ?? entry.name}>
      <div class="call-head">
        <span class="tag">tool result</span> <strong>{entry.name}</strong>{' '}
        {!entry.ok && <span class="tag bad">refused or failed</span>}
      </div>
      {entry.result ? (
        <div class={appUri ? 'with-app' : ''}>
          <ToolResult result={entry.result} outputSchema={tool?.definition.outputSchema} />
          {appUri && tool && <AppSlot server={call.server} tool={tool.definition} uri={appUri} call={call} />}
        </div>
      ) : (
        <div class="result error">{entry.text}</div>
      )}
    </div>
  );
}

function Entry({ entry, argsOf }: { entry: PlaygroundEntry; argsOf(id?: string): Record<string, unknown> }) {
  switch (entry.type) {
    case 'user':
      return (
        <div class="pg-msg user" data-testid="pg-user">
          <span class="tag">you</span> <span class="pg-text">{entry.text}</span>
        </div>
      );
    case 'assistant':
      // An answer without tool calls comes again as the final one.
      if (!entry.toolCalls?.length) return null;
      return (
        <div class="pg-msg assistant" data-testid="pg-assistant">
          <span class="tag">{entry.model}</span>
          {entry.text && <span class="pg-text">{entry.text}</span>}
          {entry.toolCalls.map((c) => (
            <div class="pg-toolcall" data-testid="pg-toolcall" data-tool={c.name}>
              calls <strong>{c.name}</strong>
              <Json value={c.input} />
            </div>
          ))}
        </div>
      );
    case 'tool':
      return <ToolEntry entry={entry} args={argsOf(entry.toolUseId)} />;
    case 'final':
      return (
        <div class="pg-msg assistant final" data-testid="pg-final">
          <span class="tag">model</span> <span class="pg-text">{entry.text}</span>
          {entry.stopReason !== 'endTurn' && <span class="tag bad">{entry.stopReason}</span>}
        </div>
      );
    case 'sampled':
      return (
        <div class="pg-msg sampled" data-testid="pg-sampled">
          <span class="tag">{entry.model}</span> answered <strong>{entry.server}</strong>'s sampling request:{' '}
          <span class="pg-text">{entry.text}</span>
        </div>
      );
    case 'error':
      return (
        <div class="result error" role="alert" data-testid="pg-error">
          {entry.text}
        </div>
      );
  }
}

/** The person plays the model (no model is configured): the answer they type is the model's. */
function Typing() {
  const [text, setText] = useState('');
  return (
    <form
      class="question"
      data-testid="pg-typing"
      onSubmit={(e) => {
        e.preventDefault();
        void api('playground-type', { text });
        setText('');
      }}
    >
      <h3>No model is configured: you answer as the model</h3>
      <textarea
        rows={2}
        data-testid="pg-type"
        aria-label="the model's answer"
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <div class="buttons">
        <button class="primary" type="submit" data-testid="pg-type-send">
          Send as the model
        </button>
      </div>
    </form>
  );
}

export function PlaygroundScreen() {
  const s = useStore();
  const [text, setText] = useState('');
  const [timeoutS, setTimeoutS] = useState(() => String(Math.round(playground.timeoutMs / 1000)));
  const [problem, setProblem] = useState('');
  const [, tick] = useState(0);
  const log = useRef<HTMLDivElement>(null);
  const p = playground;
  useEffect(() => {
    if (!p.running) return;
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [p.running]);
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [p.transcript.length, s.questions.length]);
  const calls = new Map<string, Record<string, unknown>>();
  for (const e of p.transcript) for (const c of e.toolCalls ?? []) if (c.id) calls.set(c.id, c.input);
  const send = (): void => {
    const t = text.trim();
    if (!t || p.running) return;
    const seconds = Number(timeoutS);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
      setProblem('The timeout is a whole number of seconds from 1 to 3600');
      return;
    }
    setProblem('');
    setText('');
    void api('playground-send', { text: t, timeoutMs: seconds * 1000 }).then((a) => {
      // A failed turn is in the chat already; what failed before one began (another tab's
      // turn running, a refused request) is said here.
      const m = a.error?.message;
      if (m && !playground.transcript.some((e) => e.type === 'error' && m.startsWith(e.text))) setProblem(m);
    });
  };
  const left =
    p.deadline !== undefined ? Math.max(0, Math.ceil((p.deadline - Date.now()) / 1000)) : undefined;
  return (
    <section class="playground" data-testid="playground">
      <div class="bar pg-head">
        <span>
          Model:{' '}
          <strong data-testid="pg-model">{p.model ?? 'none configured (you answer as the model)'}</strong>{' '}
          {p.provider && <span class="muted">via {p.provider}</span>}
        </span>
        <span class="muted">{s.catalog.tools.length} tools offered</span>
        <label class="pg-timeout">
          Timeout (s){' '}
          <input
            data-testid="pg-timeout"
            inputMode="numeric"
            value={timeoutS}
            onInput={(e) => setTimeoutS((e.target as HTMLInputElement).value)}
          />
        </label>
        <button class="small" data-testid="pg-clear" onClick={() => void api('playground-clear', {})}>
          New chat
        </button>
      </div>
      <div class="pg-log panel" data-testid="pg-log" role="log" aria-live="polite" ref={log}>
        {p.transcript.length === 0 && s.questions.length === 0 && (
          <p class="muted">Ask something: the model may call the servers' tools to answer.</p>
        )}
        {p.transcript.map((e) => (
          <Entry key={e.seq} entry={e} argsOf={(id) => (id && calls.get(id)) || {}} />
        ))}
        {s.questions.map((q) => (
          <QuestionCard key={q.id} q={q} />
        ))}
        {p.typing && <Typing />}
      </div>
      {p.running && (
        <div class="pg-status" data-testid="pg-running" role="status">
          <span class="tag busy">working…</span> times out in {left} s{' '}
          <button class="small" data-testid="pg-stop" onClick={() => void api('playground-stop', {})}>
            Stop
          </button>
        </div>
      )}
      {problem && (
        <div class="result error" role="alert" data-testid="pg-problem">
          {problem}
        </div>
      )}
      <form
        class="pg-input"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          rows={2}
          data-testid="pg-input"
          aria-label="your message (Enter sends, Shift+Enter for a new line)"
          placeholder="Ask the model… (Enter sends, Shift+Enter for a new line)"
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <button class="primary" type="submit" data-testid="pg-send" disabled={p.running}>
          Send
        </button>
      </form>
    </section>
  );
}
