// What the TSDoc examples leave to the reader's application: the objects an example works
// with but does not create, and the application's own functions it calls. Checked by
// scripts/check-tsdoc-examples.mjs (this file is copied next to the generated examples, so
// the internal types below resolve from the built dist/).
import type { Client, McpServer, ServerContext, Transport } from 'mcpkit';
import type { Session } from 'mcpkit/advanced';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  Implementation,
  Tool,
} from 'mcpkit/types';
import type { AuthorizationInteraction, GuardedFetch, OAuthClient, StoredTokens } from 'mcpkit/auth';
import type { Catalog, Host, HostConfig, HostUi, ModelConfig } from 'mcpkit/host';
import type { GrantContext } from '../../dist/auth/client/grants.js';
import type { RegistrationContext } from '../../dist/auth/client/registration.js';
import type { Discovery } from '../../dist/auth/client/discovery.js';
import type { ConnectionDeps } from '../../dist/host/supervision/server-connection.js';

declare global {
  // The objects an example works with.
  const server: McpServer;
  const client: Client;
  const transport: Transport;
  const session: Session;
  const info: Implementation;
  const host: Host;
  const config: HostConfig;
  const catalog: Catalog;
  const ui: HostUi;
  const deps: ConnectionDeps;
  const models: readonly ModelConfig[];
  const oauth: OAuthClient;
  const interaction: AuthorizationInteraction;
  // A handler's context in server examples, an OAuth grant context in the auth ones.
  const ctx: ServerContext & GrantContext & RegistrationContext;
  const guarded: GuardedFetch;
  const discovery: Discovery;
  const stored: StoredTokens;
  const url: string;
  const serverUrl: string;
  const issuer: string;
  const idpTokenEndpoint: string;
  const idpClientId: string;
  const idToken: string;
  const idJag: string;
  const ca: string;
  const home: string;
  const json: unknown;
  const line: string;
  const args: Record<string, unknown>;
  const signal: AbortSignal;
  const tool: Tool;
  const tokenPath: string;
  const savedId: string;
  const requestedSchema: Extract<ElicitRequestParams, { requestedSchema: unknown }>['requestedSchema'];
  const messages: CreateMessageRequestParams['messages'];
  const el: HTMLElement;
  const iframe: HTMLIFrameElement;
  const chat: { append(message: unknown): void };
  const error: unknown;
  const res: Response;
  const response: Response;
  const memoryEnd: Transport;
  const log: { write(line: string): void };
  const Bun: {
    serve(options: { port: number; hostname: string; fetch: (r: Request) => Promise<Response> }): unknown;
  };

  // The application's own functions.
  function ask(request: ElicitRequestParams): Promise<Record<string, string | number | boolean | string[]>>;
  const llm: {
    complete(
      request: CreateMessageRequestParams,
      options: { signal: AbortSignal },
    ): Promise<CreateMessageResult>;
  };
  const dialog: { ask(request: ElicitRequestParams): Promise<{ action: 'accept' | 'decline' | 'cancel' }> };
  function known(token: string): boolean;
  function token(): Promise<string>;
  function myFetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  function waitForCallbackMessage(): Promise<{ code: string; state: string; iss?: string }>;
  function stepUp(scope: string | undefined): void;
  function retryLater(): void;
  function saveSomewhere(taskId: string): void;
  function send(message: unknown): void;
  function reauthorize(challenge: string | null): Promise<void>;
  function startOver(): void;
  function reconnect(): Promise<void>;
  function useSse(): void;
  function refreshCatalog(client: Client): void;
  function lastToolResultText(params: CreateMessageRequestParams): string;
}
export {};
