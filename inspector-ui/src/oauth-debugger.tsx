// The OAuth debugger: the authorization flow of a protected server, one step at a time, each
// step with its HTTP exchanges (secrets masked by the inspector) and what was checked.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api';
import { Json } from './content';
import './oauth-debugger.css';
// Types only: the page shows the flow the inspector's step driver reports.
import type { HttpExchange } from '../../src/inspector/oauth-exchanges';
import type { FlowStep } from '../../src/inspector/oauth-flow-types';

type Exchange = HttpExchange;
type Step = FlowStep;

interface Flow {
  id: string;
  serverUrl: string;
  era: string;
  guard: string;
  timeoutMs: number;
  redirectUri: string;
  steps: Step[];
  next?: string;
}

/** Bodies longer than this are cut until the person asks for the whole. */
const SHOWN_CHARS = 2000;
const MARK: Record<Step['status'], string> = {
  pending: '○',
  running: '…',
  waiting: '⏳',
  passed: '✓',
  failed: '✗',
  skipped: '–',
};

function Body({ text, total }: { text: string; total?: number | undefined }) {
  const [all, setAll] = useState(false);
  const long = text.length > SHOWN_CHARS;
  return (
    <div class="oauth-body">
      <pre>{all || !long ? text : `${text.slice(0, SHOWN_CHARS)}…`}</pre>
      {long && (
        <button class="link" data-testid="oauth-body-all" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all ${(total ?? text.length).toLocaleString()} characters`}
        </button>
      )}
      {total !== undefined && total > text.length && (
        <p class="muted">The inspector kept the first {text.length.toLocaleString()} characters.</p>
      )}
    </div>
  );
}

function Headers({ h }: { h: Record<string, string> | undefined }) {
  if (!h || Object.keys(h).length === 0) return <p class="muted">no headers</p>;
  return (
    <table class="oauth-headers">
      {Object.entries(h).map(([k, v]) => (
        <tr>
          <th>{k}</th>
          <td>{v}</td>
        </tr>
      ))}
    </table>
  );
}

function ExchangeView({ x }: { x: Exchange }) {
  const bad = x.error !== undefined || (x.status !== undefined && x.status >= 400);
  return (
    <details class={`oauth-exchange ${bad ? 'bad' : ''}`} data-testid="oauth-exchange">
      <summary>
        <code>{x.method}</code> <span class="oauth-url">{x.url}</span> →{' '}
        <span class="oauth-status" data-testid="oauth-exchange-status">
          {x.status ?? 'no answer'}
        </span>{' '}
        <span class="muted">
          {x.what} · {x.ms} ms
        </span>
        {x.error && <div class="oauth-error-line">{x.error}</div>}
      </summary>
      <h4>Request headers</h4>
      <Headers h={x.requestHeaders} />
      {x.requestBody !== undefined && (
        <>
          <h4>Request body</h4>
          <Body text={x.requestBody} />
        </>
      )}
      <h4>Response headers</h4>
      <Headers h={x.responseHeaders} />
      {x.responseBody !== undefined && (
        <>
          <h4>Response body</h4>
          <Body text={x.responseBody} total={x.responseChars} />
        </>
      )}
    </details>
  );
}

function StepView({
  step,
  open,
  children,
}: {
  step: Step;
  open: boolean;
  children?: preact.ComponentChildren;
}) {
  return (
    <li class={`oauth-step ${step.status}`} data-step={step.id} data-status={step.status}>
      <div class="oauth-step-head">
        <span class="oauth-mark" aria-hidden="true">
          {MARK[step.status]}
        </span>
        <strong>{step.title}</strong>
        <span class={`tag oauth-tag ${step.status}`} data-testid="oauth-step-status">
          {step.status}
        </span>
        {step.ms !== undefined && <span class="muted">{step.ms} ms</span>}
      </div>
      {open && (
        <div class="oauth-step-body">
          {step.failure && (
            <div class="oauth-failure" role="alert" data-testid="oauth-failure">
              <strong data-testid="oauth-failure-title">{step.failure.title}</strong>
              <p>{step.failure.explanation}</p>
              <p class="oauth-message">{step.failure.message}</p>
            </div>
          )}
          {step.checks.length > 0 && (
            <ul class="oauth-checks">
              {step.checks.map((c) => (
                <li class={c.ok ? 'ok' : c.info ? 'info' : 'bad'} data-testid="oauth-check">
                  <span aria-label={c.ok ? 'pass' : c.info ? 'note' : 'fail'}>
                    {c.ok ? '✓' : c.info ? 'i' : '✗'}
                  </span>{' '}
                  {c.name} <span class="muted">— {c.detail}</span>
                </li>
              ))}
            </ul>
          )}
          {children}
          {Object.keys(step.facts).length > 0 && (
            <details class="oauth-facts">
              <summary>What this step learned</summary>
              <Json value={step.facts} />
            </details>
          )}
          {step.exchanges.map((x) => (
            <ExchangeView x={x} />
          ))}
        </div>
      )}
    </li>
  );
}

export function OAuthDebuggerScreen() {
  const [url, setUrl] = useState('');
  const [era, setEra] = useState('legacy');
  const [guard, setGuard] = useState(false);
  const [timeout, setTimeoutS] = useState('10');
  const [cimd, setCimd] = useState('');
  const [tool, setTool] = useState('');
  const [flow, setFlow] = useState<Flow | undefined>(undefined);
  const [busy, setBusy] = useState<{ what: string; since: number } | undefined>(undefined);
  const [now, setNow] = useState(Date.now());
  const [error, setError] = useState('');
  const nextRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);

  const waiting = flow?.steps.find((s) => s.status === 'waiting');
  // While a step runs, the elapsed time against the timeout stays visible.
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [busy]);
  // While the authorization page is open elsewhere, the callback finishes the step: poll for it.
  useEffect(() => {
    if (!waiting || busy || !flow) return;
    const t = setInterval(async () => {
      const a = await api<{ flow: Flow | null }>('oauth-state', {});
      // Taken once the step has finished: a snapshot taken while the callback runs would stop the polling.
      const moving = a.flow?.steps.some((s) => s.status === 'waiting' || s.status === 'running');
      if (a.flow && a.flow.id === flow.id && !moving) setFlow(a.flow);
    }, 500);
    return () => clearInterval(t);
  }, [waiting?.id, waiting?.status, busy, flow?.id]);
  // Focus follows the flow, so Enter alone walks it.
  useEffect(() => {
    if (busy) return;
    if (waiting) openRef.current?.focus();
    else nextRef.current?.focus();
  }, [flow, busy]);

  const call = async (op: string, body: Record<string, unknown>, what: string): Promise<void> => {
    setBusy({ what, since: Date.now() });
    setError('');
    const a = await api<{ flow: Flow | null }>(op, body);
    setBusy(undefined);
    if (a.error) setError(a.error.message);
    else setFlow(a.flow ?? undefined);
  };
  const start = (e: Event): void => {
    e.preventDefault();
    const seconds = Number(timeout);
    void call(
      'oauth-start',
      {
        url,
        era,
        guard: guard ? 'strict' : 'loopback',
        ...(Number.isFinite(seconds) && seconds > 0 ? { timeoutMs: Math.round(seconds * 1000) } : {}),
        ...(cimd ? { clientMetadataUrl: cimd } : {}),
        ...(tool ? { stepUpTool: tool } : {}),
      },
      'starting',
    );
  };
  const nextStep = flow?.steps.find((s) => s.id === flow.next);
  const shownOpen = (s: Step): boolean =>
    s.status === 'failed' || s.status === 'waiting' || s.status === 'running' || s.id === lastDone(flow);

  return (
    <div class="oauth" data-testid="oauth-debugger">
      <form class="card oauth-form" onSubmit={start}>
        <h2>OAuth debugger</h2>
        <p class="muted">
          Walks the authorization flow of a protected Streamable HTTP server one step at a time, with mcpkit's
          own OAuth client. Secrets are masked.
        </p>
        <label class="field">
          <span class="field-label">Server URL</span>
          <input
            data-testid="oauth-url"
            type="url"
            required
            placeholder="https://mcp.example.com/mcp"
            value={url}
            onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
          />
        </label>
        <div class="oauth-row">
          <label class="field inline">
            <span class="field-label">Era</span>
            <select
              data-testid="oauth-era"
              value={era}
              onChange={(e) => setEra((e.target as HTMLSelectElement).value)}
            >
              <option value="legacy">legacy (initialize)</option>
              <option value="modern">modern (2026-07-28)</option>
            </select>
          </label>
          <label class="field inline">
            <span class="field-label">Timeout per request (s)</span>
            <input
              data-testid="oauth-timeout"
              class="oauth-short"
              inputMode="decimal"
              value={timeout}
              onInput={(e) => setTimeoutS((e.target as HTMLInputElement).value)}
            />
          </label>
          <label class="field check">
            <input
              type="checkbox"
              data-testid="oauth-guard"
              checked={guard}
              onChange={(e) => setGuard((e.target as HTMLInputElement).checked)}
            />{' '}
            SSRF guard: refuse loopback and private addresses
          </label>
        </div>
        <details>
          <summary>More options</summary>
          <label class="field">
            <span class="field-label">
              Client ID Metadata Document URL (https, used when the server supports it)
            </span>
            <input value={cimd} onInput={(e) => setCimd((e.target as HTMLInputElement).value)} />
          </label>
          <label class="field">
            <span class="field-label">Tool for the step-up step (default: the last one listed)</span>
            <input
              data-testid="oauth-stepup-tool"
              value={tool}
              onInput={(e) => setTool((e.target as HTMLInputElement).value)}
            />
          </label>
        </details>
        <button class="primary" type="submit" data-testid="oauth-start" disabled={busy !== undefined}>
          {flow ? 'Start again' : 'Start'}
        </button>
      </form>
      {error && (
        <div class="result error" role="alert" data-testid="oauth-api-error">
          {error}
        </div>
      )}
      {flow && (
        <section class="card oauth-flow">
          <p class="muted" data-testid="oauth-summary">
            {flow.serverUrl} · {flow.era} era · SSRF guard{' '}
            {flow.guard === 'strict' ? 'on' : 'off (loopback allowed)'} · redirect URI{' '}
            <code>{flow.redirectUri}</code>
          </p>
          <ol class="oauth-steps">
            {flow.steps.map((s) => (
              <StepView step={s} open={shownOpen(s)}>
                {s.status === 'waiting' && s.authorizationUrl && (
                  <div class="oauth-authorize">
                    <p>
                      Open the authorization page; the authorization server sends the browser back to the
                      inspector's callback, and this step goes on by itself.
                    </p>
                    <p class="oauth-url" data-testid="oauth-authorization-url">
                      {s.authorizationUrl}
                    </p>
                    <button
                      ref={openRef}
                      class="primary"
                      data-testid="oauth-open"
                      onClick={() => window.open(s.authorizationUrl, '_blank')}
                    >
                      Open authorization page
                    </button>{' '}
                    <button
                      data-testid="oauth-follow"
                      title="for authorization servers that approve at once (test servers)"
                      onClick={() => void call('oauth-follow', { flow: flow.id }, 'following the redirect')}
                    >
                      Follow here
                    </button>
                  </div>
                )}
              </StepView>
            ))}
          </ol>
          {busy && (
            <p class="oauth-busy" role="status" data-testid="oauth-busy">
              {busy.what}… {((now - busy.since) / 1000).toFixed(1)} s (each request gives up after{' '}
              {flow.timeoutMs / 1000} s)
            </p>
          )}
          {nextStep && !busy && (
            <button
              ref={nextRef}
              class="primary"
              data-testid="oauth-next"
              onClick={() => void call('oauth-next', { flow: flow.id }, nextStep.title)}
            >
              Next step: {nextStep.title}
            </button>
          )}
          {!nextStep && !waiting && !busy && (
            <p
              data-testid="oauth-done"
              class={flow.steps.some((s) => s.status === 'failed') ? 'oauth-stopped' : ''}
            >
              {flow.steps.some((s) => s.status === 'failed')
                ? 'The flow stopped at the failed step.'
                : 'The flow is complete.'}
            </p>
          )}
        </section>
      )}
    </div>
  );
}

function lastDone(flow: Flow | undefined): string | undefined {
  return flow?.steps.filter((s) => s.status === 'passed' || s.status === 'skipped').at(-1)?.id;
}
