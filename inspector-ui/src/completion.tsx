// Argument completion (`completion/complete`) for prompt arguments and template
// variables: the server's suggestions appear as the input's options while typing.
import { useRef, useState } from 'preact/hooks';
import { api } from './api';
import { state } from './store';

let nextList = 1;

/** An input whose suggestions come from the server, when it declares `completions`. */
export function CompletingInput({
  server,
  reference,
  name,
  value,
  context,
  onValue,
  dataAttr,
}: {
  server: string;
  reference: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  name: string;
  value: string;
  context: Record<string, string>;
  onValue(v: string): void;
  dataAttr: Record<string, string>;
}) {
  const [options, setOptions] = useState<string[]>([]);
  const [id] = useState(() => `completion-${nextList++}`);
  const latest = useRef(0);
  const completes = state.servers.find((s) => s.name === server)?.capabilities?.completions !== undefined;
  const ask = (v: string): void => {
    if (!completes) return;
    const n = ++latest.current;
    void api<{ result?: { completion?: { values?: string[] } } }>('complete', {
      server,
      params: { ref: reference, argument: { name, value: v }, context: { arguments: context } },
    }).then((a) => {
      if (n === latest.current && !a.error) setOptions(a.result?.completion?.values ?? []);
    });
  };
  return (
    <>
      <input
        {...dataAttr}
        list={id}
        value={value}
        onFocus={() => ask(value)}
        onInput={(e) => {
          const v = (e.target as HTMLInputElement).value;
          onValue(v);
          ask(v);
        }}
      />
      <datalist id={id} data-completions={name}>
        {options.map((o) => (
          <option value={o} />
        ))}
      </datalist>
    </>
  );
}
