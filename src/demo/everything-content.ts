import type { McpServer } from '../server/server.js';
import { ARG1_SUGGESTIONS, TINY_PNG_BASE64 } from './everything-media.js';

/** The resource `touch_watched_resource` changes, for subscription demos. */
export const WATCHED_RESOURCE_URI = 'test://watched-resource';
const WATCHED = WATCHED_RESOURCE_URI;

function completeFrom(words: readonly string[]): (value: string) => string[] {
  return (value) => {
    const prefix = value.toLowerCase();
    return words.filter((w) => w.startsWith(prefix));
  };
}

/** The resources, template and prompts of the demo "everything" server. */
export function registerEverythingContent(server: McpServer): void {
  // ---------------------------------------------------------------- resources

  server.resource(
    {
      uri: 'test://static-text',
      name: 'Static text',
      description: 'A static text resource',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  );

  server.resource(
    {
      uri: 'test://static-binary',
      name: 'Static binary',
      description: 'A static binary resource (a PNG image)',
      mimeType: 'image/png',
    },
    (uri) => [{ uri, mimeType: 'image/png', blob: TINY_PNG_BASE64 }],
  );

  server.resourceTemplate(
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'Template data',
      description: 'Data for any id, from a URI template',
      mimeType: 'application/json',
      complete: { id: completeFrom(['1', '2', '3', '42', '123']) },
    },
    (uri, variables) => {
      const id = String(variables.id);
      const data = { id, templateTest: true, data: `Data for ID: ${id}` };
      return [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }];
    },
  );

  // Its content changes with every `touch_watched_resource` call; subscribers hear of it.
  let revision = 0;
  server.resource(
    {
      uri: WATCHED,
      name: 'Watched resource',
      description: 'A resource to subscribe to; touch_watched_resource changes it',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: `Watched resource content, revision ${revision}` }],
  );

  server.tool(
    {
      name: 'touch_watched_resource',
      description: `Changes ${WATCHED} and notifies its subscribers`,
      input: { type: 'object', properties: {} },
    },
    () => {
      revision++;
      server.resourceUpdated(WATCHED);
      return `${WATCHED} is now at revision ${revision}`;
    },
  );

  // ---------------------------------------------------------------- prompts

  server.prompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' }, () => [
    { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
  ]);

  server.prompt(
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two required arguments',
      arguments: [
        {
          name: 'arg1',
          description: 'First test argument',
          required: true,
          complete: completeFrom(ARG1_SUGGESTIONS),
        },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    (args) => [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
        },
      },
    ],
  );

  server.prompt(
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that embeds a resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    (args) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: String(args.resourceUri),
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      {
        role: 'user',
        content: { type: 'text', text: 'Please process the embedded resource above.' },
      },
    ],
  );

  server.prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' }, () => [
    { role: 'user', content: { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
  ]);
}
