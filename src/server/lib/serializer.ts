import fastJson from 'fast-json-stringify';
import { type ZodType, z } from 'zod';

/**
 * Responses are written by fast-json-stringify from the JSON Schema of each route's zod response
 * schema: only the fields the schema lists leave the server, at a fraction of the cost of
 * re-validating every answer with zod.
 */
export const serializerCompiler = ({ schema }: { schema: unknown }) => {
  const jsonSchema = z.toJSONSchema(schema as ZodType, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
};
