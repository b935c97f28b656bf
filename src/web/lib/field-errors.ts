/**
 * The field errors still standing after a form's values changed: a field's error goes as soon as
 * the field changes, the others stay until the next check.
 */
export function withoutChangedFields(
  errors: Record<string, string>,
  before: object,
  after: object,
): Record<string, string> {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const left = Object.fromEntries(Object.entries(errors).filter(([field]) => was[field] === now[field]));
  return Object.keys(left).length === Object.keys(errors).length ? errors : left;
}
