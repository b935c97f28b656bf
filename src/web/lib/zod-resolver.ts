import type { z } from 'zod';
import { fieldMessages } from '../../domain/errors';

/**
 * The domain schema's verdict on a form as its field errors: the first message of each field,
 * keyed by the field's name in the request (the name the server's `fields` use too), none when the
 * request passes. `toRequest` turns the form's values into what the schema judges.
 */
export function zodResolver<Values>(
  schema: z.ZodType,
  toRequest: (values: Values) => unknown = (values) => values,
): (values: Values) => Record<string, string> {
  return (values) => {
    const parsed = schema.safeParse(toRequest(values));
    return parsed.success ? {} : fieldMessages(parsed.error);
  };
}
