// The tools of the large-catalog benchmark, as a server generated from an OpenAPI document
// would declare them: one per operation, path and query parameters, a nested JSON body with
// enums, arrays of objects, optional fields, and a description on most of it. The body is a
// component schema, shared by the operations on one resource, and the query parameters are
// components shared by all, as a generator shares a
// `$ref`'d component (and building a zod schema is costly enough to dominate start-up
// otherwise). Deterministic: tool i is the same in every server and every run. About 2 KB of
// JSON Schema each.
import { z } from 'zod';

const RESOURCES = ['pet', 'order', 'user', 'invoice', 'shipment', 'ticket', 'project', 'repo'];
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'archive', 'restore'];
const STATUS = ['available', 'pending', 'sold', 'archived', 'on_hold'];
const SORT = ['created_at', 'updated_at', 'name', 'priority'];

function address() {
  return z
    .object({
      line1: z.string().describe('First line of the street address'),
      line2: z.string().optional().describe('Apartment, suite or unit'),
      city: z.string().describe('City or locality'),
      postalCode: z.string().max(16).describe('Postal or ZIP code'),
      country: z.string().length(2).describe('ISO 3166-1 alpha-2 country code'),
    })
    .describe('A postal address');
}

/** The request body component of one resource. */
function bodyOf(resource) {
  return z
    .object({
      name: z.string().max(200).describe(`The ${resource}'s display name`),
      tags: z.array(z.string()).optional().describe('Free-form labels'),
      priority: z.enum(['low', 'normal', 'high', 'urgent']).optional().describe('How urgent it is'),
      owner: z
        .object({
          id: z.string().describe('The owner user id'),
          email: z.string().optional().describe('Where notifications go'),
          address: address().optional(),
        })
        .optional()
        .describe('Who owns it'),
      items: z
        .array(
          z.object({
            sku: z.string().describe('Stock keeping unit'),
            quantity: z.number().int().min(1).describe('How many'),
            unitPrice: z.number().min(0).optional().describe('Price per unit in minor units'),
          }),
        )
        .optional()
        .describe('Line items'),
    })
    .optional()
    .describe('The request body (application/json)');
}
const bodies = new Map();
/** Query parameters, components too (`$ref: '#/components/parameters/...'`). */
const query = {
  limit: z.number().int().min(1).max(500).optional().describe('Items per page (query parameter)'),
  status: z.enum(STATUS).optional().describe('Filter by status'),
  sort: z.enum(SORT).optional().describe('Sort key'),
  includeArchived: z.boolean().optional().describe('Whether archived items are included'),
};

/** The name, description and zod input schema of tool `i`. */
export function catalogTool(i) {
  const resource = RESOURCES[i % RESOURCES.length];
  const verb = VERBS[Math.floor(i / RESOURCES.length) % VERBS.length];
  const name = `${verb}_${resource}_${i}`;
  const description = `${verb[0].toUpperCase()}${verb.slice(1)} a ${resource} (operation ${i}). Generated from the OpenAPI operation ${verb}${resource[0].toUpperCase()}${resource.slice(1)}${i}; returns the ${resource} as JSON.`;
  const input = z.object({
    [`${resource}Id`]: z.string().min(1).describe(`The ${resource}'s identifier (path parameter)`),
    ...query,
    body: bodies.get(resource) ?? bodies.set(resource, bodyOf(resource)).get(resource),
  });
  return { name, description, input };
}

/** Arguments valid for tool `i`, for tools/call. */
export function catalogArgs(i) {
  const resource = RESOURCES[i % RESOURCES.length];
  return { [`${resource}Id`]: 'abc-123', limit: 10, status: 'pending', body: { name: 'x', tags: ['a'] } };
}

/** The tool count from the command line (`node server.mjs 1000`). */
export const toolCount = () => Number(process.argv[2] ?? 100);
