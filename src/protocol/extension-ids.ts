/** The tasks extension's identifier (2026-07-28): its capability key and reserved label. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
