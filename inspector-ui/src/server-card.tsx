// A remote server's Server Card (SEP-2127), read before connecting: who the server says it
// is and where it says it can be reached. Advisory only: what the connection reports wins.
import { useState } from 'preact/hooks';
import { api } from './api';

interface Card {
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  remotes?: { type: string; url: string; supportedProtocolVersions?: string[] }[];
}

/** A button that reads the card at `<url>/server-card`, and the card once read. */
export function ServerCardPreview({ url }: { url: string }) {
  const [busy, setBusy] = useState(false);
  const [card, setCard] = useState<Card | undefined>(undefined);
  const [error, setError] = useState('');
  const read = async (): Promise<void> => {
    setBusy(true);
    setCard(undefined);
    setError('');
    const a = await api<{ card?: Card }>('server-card', { url: url.trim() });
    setBusy(false);
    if (a.error) setError(a.error.message);
    else setCard(a.card);
  };
  return (
    <div class="server-card" data-testid="server-card">
      <div class="buttons">
        <button
          type="button"
          data-testid="read-server-card"
          disabled={busy || url.trim() === ''}
          onClick={() => void read()}
        >
          {busy ? 'Reading…' : 'Read Server Card'}
        </button>
        {error && (
          <span class="tag bad" data-testid="server-card-error">
            {error}
          </span>
        )}
      </div>
      {card && (
        <dl data-testid="server-card-details">
          <dt>Server</dt>
          <dd>
            {card.title ?? card.name}{' '}
            <span class="hint">
              {card.name} {card.version}
            </span>
          </dd>
          <dt>Description</dt>
          <dd>{card.description}</dd>
          {card.websiteUrl && (
            <>
              <dt>Website</dt>
              <dd>{card.websiteUrl}</dd>
            </>
          )}
          <dt>Endpoints</dt>
          <dd>
            <ul>
              {(card.remotes ?? []).map((r) => (
                <li key={r.url}>
                  {r.type}: {r.url}
                  {r.supportedProtocolVersions && (
                    <span class="hint"> {r.supportedProtocolVersions.join(', ')}</span>
                  )}
                </li>
              ))}
            </ul>
          </dd>
        </dl>
      )}
    </div>
  );
}
