// A requester reply whose body arrives as the given text pieces, for the SSE reader targets
// of both fuzzers (targets.mjs, guided-targets.mjs).
export function scriptedReply(parts) {
  return {
    status: 200,
    statusText: 'OK',
    header: () => null,
    headers: () => new Headers(),
    bytes: async () => new Uint8Array(),
    discard: () => undefined,
    read: async (onText) => {
      for (const p of parts) if (onText(p) === false) return;
    },
  };
}
