/**
 * Test-only: an OpenAI-compatible chat completions endpoint on 127.0.0.1 that answers from a
 * script, one step per request, and records every request. A step is a function of the
 * request (so a test answers with what the tool result said), and can also answer with an
 * HTTP error, a body that is not JSON, or never answer at all. Not part of the public API.
 */
import { EventEmitter, once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the endpoint received. */
export interface ChatRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    messages?: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
    tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
    [key: string]: unknown;
  };
}

/** What a step answers: a chat completion's message, a raw HTTP answer, or nothing ever. */
export type ScriptedReply =
  | { text: string }
  | { toolCall: { name: string; arguments: Record<string, unknown> | string; id?: string } }
  | { status: number; body: string; contentType?: string }
  | 'hang';

export type ChatStep = ScriptedReply | ((request: ChatRequest) => ScriptedReply);

export interface ScriptedOpenAi {
  /** The base URL an OpenAI SDK takes (`http://127.0.0.1:PORT/v1`). */
  readonly baseURL: string;
  readonly requests: ChatRequest[];
  /** Adds steps at the end of the script. */
  push(...steps: ChatStep[]): void;
  /** Drops the steps not used yet (what a failed test left). */
  reset(): void;
  /** Resolves with the request number `n` (1-based) once it has arrived. */
  request(n: number): Promise<ChatRequest>;
  close(): Promise<void>;
}

/** The tool the model was offered whose name is `name` or ends with `__name` (the host's aliases). */
export function offeredTool(request: ChatRequest, name: string): string {
  const found = (request.body.tools ?? [])
    .map((t) => t.function.name)
    .find((n) => n === name || n.endsWith(`__${name}`));
  if (!found) throw new Error(`the model was not offered a tool named like ${name}`);
  return found;
}

/** The content of the last `tool` message of a request (what the tool result said). */
export function lastToolResult(request: ChatRequest): string {
  const tool = [...(request.body.messages ?? [])].reverse().find((m) => m.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : '';
}

/** Starts the endpoint; steps may be given now or pushed later. */
export async function startScriptedOpenAi(steps: ChatStep[] = []): Promise<ScriptedOpenAi> {
  const script = [...steps];
  const requests: ChatRequest[] = [];
  const arrived = new EventEmitter();
  let calls = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: ChatRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest['body'];
      } catch {
        // recorded as empty: the step decides
      }
      const request: ChatRequest = { path: req.url ?? '', headers: req.headers, body };
      requests.push(request);
      arrived.emit('request');
      if (req.url !== '/v1/chat/completions') return answer(res, 404, JSON.stringify({ error: 'not found' }));
      const step = script.shift();
      if (step === undefined)
        return answer(
          res,
          500,
          JSON.stringify({ error: { message: `no reply scripted for request ${requests.length}` } }),
        );
      const reply = typeof step === 'function' ? step(request) : step;
      if (reply === 'hang') return; // the socket stays open until the server closes
      if ('status' in reply) return answer(res, reply.status, reply.body, reply.contentType);
      const id = `chatcmpl-${++calls}`;
      const message =
        'text' in reply
          ? { role: 'assistant', content: reply.text }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: reply.toolCall.id ?? `call_${calls}`,
                  type: 'function',
                  function: {
                    name: reply.toolCall.name,
                    arguments:
                      typeof reply.toolCall.arguments === 'string'
                        ? reply.toolCall.arguments
                        : JSON.stringify(reply.toolCall.arguments),
                  },
                },
              ],
            };
      answer(
        res,
        200,
        JSON.stringify({
          id,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? 'scripted',
          choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...more) => void script.push(...more),
    reset: () => void script.splice(0),
    request: async (n) => {
      while (requests.length < n) await once(arrived, 'request');
      return requests[n - 1]!;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
