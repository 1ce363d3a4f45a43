// The page's settings, kept in this browser's storage for this inspector's origin: the
// colour theme and the request timeouts the page asks for on calls, reads and prompts.

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Settings {
  theme: ThemeChoice;
  /** Milliseconds; undefined: the server's configured default. */
  timeoutMs: number | undefined;
  /** A progress notification starts the timeout again (a long call that reports stays alive). */
  resetOnProgress: boolean;
  /** Milliseconds a request may take in all, progress or not; undefined: the client's default. */
  maxTotalMs: number | undefined;
}

/** The range the inspector's API accepts for both timeouts: 1 s to 24 h. */
export const TIMEOUT_MIN = 1000;
export const TIMEOUT_MAX = 86_400_000;

const inRange = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= TIMEOUT_MIN && v <= TIMEOUT_MAX ? v : undefined;

const KEY = 'mcpkit-inspector-settings';
const listeners = new Set<() => void>();

function load(): Settings {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Settings>;
    return {
      theme: v.theme === 'light' || v.theme === 'dark' ? v.theme : 'system',
      timeoutMs: inRange(v.timeoutMs),
      resetOnProgress: v.resetOnProgress === true,
      maxTotalMs: inRange(v.maxTotalMs),
    };
  } catch {
    return { theme: 'system', timeoutMs: undefined, resetOnProgress: false, maxTotalMs: undefined };
  }
}

export const settings: Settings = load();

const dark = matchMedia('(prefers-color-scheme: dark)');

/** The theme in effect: the choice, or the system's when the choice is `system`. */
export function effectiveTheme(): 'light' | 'dark' {
  return settings.theme === 'system' ? (dark.matches ? 'dark' : 'light') : settings.theme;
}

function apply(): void {
  document.documentElement.dataset.theme = effectiveTheme();
  for (const l of listeners) l();
}

/** Changes settings, stores them and tells the listeners (the theme reaches open app views). */
export function updateSettings(patch: Partial<Settings>): void {
  Object.assign(settings, patch);
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // storage may be off: the setting lasts for this page
  }
  apply();
}

/** Called when a setting or the system theme changes; returns the function that stops it. */
export function onSettings(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

dark.addEventListener('change', apply);
apply();
