/**
 * `mcpkit/host/node`: the host's Node bindings. Files (the config, remembered approvals, the
 * audit log), the transports that spawn and dial servers, the terminal UI and the sandbox
 * proxy's loopback server. `mcpkit/host` itself loads none of these: the `Host` imports its
 * transports on first start, so a host given its own `serverTransport` never loads them.
 *
 * @packageDocumentation
 */
export { JsonFileApprovalStore, fileAudit, loadHostConfig } from './node-files.js';
export { serverTransport } from './supervision/node-transports.js';
export { TerminalUi } from './ui/terminal-ui.js';
export type { TerminalUiOptions } from './ui/terminal-ui.js';
export { startSandboxProxyServer } from './serve/node-sandbox-server.js';
export type { SandboxProxyServer, SandboxProxyServerOptions } from './serve/node-sandbox-server.js';
