/** Asking the user for input through the client (`elicitation/create`). @since 2025-06-18 */
import type { NotificationParams, RequestParams, Result } from './base.js';
import type { TaskMetadata } from './tasks.js';

/** A free-text field. @since 2025-06-18 */
export interface StringSchema {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  /** @since 2025-11-25 */
  default?: string;
}

/** A numeric field. @since 2025-06-18 */
export interface NumberSchema {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  /** @since 2025-11-25 */
  default?: number;
}

/** A yes/no field. @since 2025-06-18 */
export interface BooleanSchema {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
}

/** Pick one value from a plain list. @since 2025-11-25 */
export interface UntitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
}

/** A value with its display label. */
export interface TitledEnumOption {
  const: string;
  title: string;
}

/** Pick one value from a list with display labels. @since 2025-11-25 */
export interface TitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  oneOf: TitledEnumOption[];
  default?: string;
}

/** @since 2025-11-25 */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;

/** Pick several values from a plain list. @since 2025-11-25 */
export interface UntitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    type: 'string';
    enum: string[];
  };
  default?: string[];
}

/** Pick several values from a list with display labels. @since 2025-11-25 */
export interface TitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: {
    anyOf: TitledEnumOption[];
  };
  default?: string[];
}

/** @since 2025-11-25 */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;

/**
 * The 2025-06-18 enum field: plain values with optional parallel `enumNames` labels
 * (not standard JSON Schema). Still accepted later; prefer the titled variants.
 * @since 2025-06-18
 */
export interface LegacyTitledEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  /** Display labels, index-aligned with `enum`. */
  enumNames?: string[];
  /** @since 2025-11-25 */
  default?: string;
}

/** Every enum field shape. @since 2025-06-18 */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

/** A flat form field: no nested objects, arrays only as multi-select. @since 2025-06-18 */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** The form a client should render: one level of primitive properties. @since 2025-06-18 */
export interface ElicitationRequestedSchema {
  /** @since 2025-11-25 */
  $schema?: string;
  type: 'object';
  properties: { [key: string]: PrimitiveSchemaDefinition };
  required?: string[];
}

/** Form mode: collect structured, non-sensitive data in the client. @since 2025-06-18 */
export interface ElicitRequestFormParams extends RequestParams {
  /** Absent means form; the field exists from 2025-11-25. */
  mode?: 'form';
  /** Tells the user what is being asked and why. */
  message: string;
  requestedSchema: ElicitationRequestedSchema;
  /** Run as a task. @since 2025-11-25 @removed 2026-07-28 */
  task?: TaskMetadata;
}

/** URL mode: send the user to a page, for input that must not pass through the client. @since 2025-11-25 */
export interface ElicitRequestURLParams extends RequestParams {
  mode: 'url';
  /** Tells the user why they are being sent to the page. */
  message: string;
  url: string;
  /**
   * Correlates `notifications/elicitation/complete`. Required in 2025-11-25.
   * @removed 2026-07-28
   */
  elicitationId?: string;
  /** Run as a task. @since 2025-11-25 @removed 2026-07-28 */
  task?: TaskMetadata;
}

/** Params of `elicitation/create`. @since 2025-06-18 */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/** What the user did: submitted, explicitly refused, or dismissed. @since 2025-06-18 */
export type ElicitAction = 'accept' | 'decline' | 'cancel';

/** A submitted field value (`string[]` for multi-select, from 2025-11-25). @since 2025-06-18 */
export type ElicitValue = string | number | boolean | string[];

/** Result of `elicitation/create`. @since 2025-06-18 */
export interface ElicitResult extends Result {
  action: ElicitAction;
  /** Form data, only for `accept` in form mode. */
  content?: { [key: string]: ElicitValue };
}

/**
 * Params of `notifications/elicitation/complete`: a URL-mode interaction finished.
 * @since 2025-11-25 @removed 2026-07-28
 */
export interface ElicitationCompleteNotificationParams extends NotificationParams {
  elicitationId: string;
}
