import { AppError } from '@spinroom/platform/core';
import type { Request } from 'express';
import type { z } from 'zod';

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL.
 * None belongs in text a person wrote, and PostgreSQL refuses NUL outright (in
 * text and in jsonb), so they are refused here, before any service sees them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters';

/** The path of the first string (or object key) in `value` that holds a control character. */
export function controlCharacterAt(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = controlCharacterAt(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (CONTROL_CHARACTER.test(key)) return [...path, key];
      const found = controlCharacterAt(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Validates one part of a request (body, query or path parameters) with its
 * schema, then refuses control characters anywhere in what passed: one rule
 * for every route, so that a schema written without it is still safe.
 */
export function parseInput<S extends z.ZodType | undefined>(schema: S, value: unknown): S extends z.ZodType ? z.infer<S> : undefined {
  if (!schema) return undefined as never;
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError(400, result.error.issues.map(issueMessage));
  const at = controlCharacterAt(value);
  if (at) throw new AppError(400, [at.length > 0 ? `${at.join('.')}: ${CONTROL_CHARACTER_MESSAGE}` : CONTROL_CHARACTER_MESSAGE]);
  return result.data as never;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** A path that takes a JSON body answers 415 to a body of another type (it would otherwise read as empty). */
export function requireJsonBody(req: Request): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    throw new AppError(415, 'Expected a body of type application/json');
  }
}

/** The control-character rule as a JSON Schema pattern (ECMA-262 syntax, as OpenAPI 3.1 reads it). */
export const TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';

type SchemaNode = Record<string, unknown>;

/**
 * Writes the control-character rule into the OpenAPI document: every string a
 * request may carry (parameters and bodies, through the components they name)
 * that has no pattern, format or fixed values gets TEXT_PATTERN, so that the
 * document says what parseInput refuses.
 */
export function documentTextRule(document: { paths?: unknown; components?: { schemas?: Record<string, unknown> } }): void {
  const components = document.components?.schemas ?? {};
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const schema = node as SchemaNode;
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) visit(components[ref.slice('#/components/schemas/'.length)]);
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (
      types.includes('string') &&
      schema.pattern === undefined &&
      schema.format === undefined &&
      schema.enum === undefined &&
      schema.const === undefined
    ) {
      schema.pattern = TEXT_PATTERN;
    }
    for (const key of [
      'properties',
      'patternProperties',
      'items',
      'prefixItems',
      'additionalProperties',
      'anyOf',
      'oneOf',
      'allOf',
      'not',
      'propertyNames',
    ]) {
      const child = schema[key];
      if (child === undefined) continue;
      if (key === 'properties' || key === 'patternProperties') for (const property of Object.values(child as SchemaNode)) visit(property);
      else visit(child);
    }
  };
  for (const item of Object.values((document.paths ?? {}) as Record<string, SchemaNode>)) {
    for (const operation of Object.values(item)) {
      const op = operation as {
        parameters?: Array<{ schema?: unknown }>;
        requestBody?: { content?: Record<string, { schema?: unknown }> };
      };
      for (const parameter of op.parameters ?? []) visit(parameter.schema);
      for (const content of Object.values(op.requestBody?.content ?? {})) visit(content.schema);
    }
  }
}
