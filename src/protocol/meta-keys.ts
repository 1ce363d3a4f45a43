/** Reserved `_meta` keys of the modern era. */
export const MetaKey = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  ProgressToken: 'progressToken',
} as const;
