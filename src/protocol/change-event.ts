/**
 * A change a server announces: a list changed, or one subscribed resource was updated. One
 * shape for both halves: a server publishes it on its change bus, and a client's
 * subscription yields it.
 *
 * @example
 * ```ts
 * for await (const change of await client.subscribe({ toolsListChanged: true })) {
 *   if (change.kind === 'tools') console.log('tools changed');
 * }
 * ```
 */
export type ChangeEvent = { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string };
