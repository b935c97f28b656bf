/** One string of a request, with the top-level field it sits in. */
export interface RequestString {
  /** The top-level field (for the `fields` map of the answer); `_` when the value itself is a string. */
  field: string;
  /** The key this string is the value of; for a key, the key of the object holding it. */
  key: string | undefined;
  value: string;
  /** The string is an object key, not a value. */
  isKey: boolean;
  /** Somewhere below a key in `opaqueKeys` (a gateway token: opaque bytes, not text a person typed). */
  inOpaque: boolean;
}

/**
 * Every string of a parsed body, query or params, keys included, at any depth. Iterative, so a
 * body nested ten thousand levels deep is walked without growing the call stack.
 */
export function* requestStrings(root: unknown, opaqueKeys: ReadonlySet<string> = new Set()) {
  const stack: Array<{ value: unknown; field: string; key: string | undefined; inOpaque: boolean }> = [
    { value: root, field: '_', key: undefined, inOpaque: false },
  ];
  while (stack.length > 0) {
    const { value, field, key, inOpaque } = stack.pop() as (typeof stack)[number];
    const topLevel = value === root;
    if (typeof value === 'string') {
      yield { field, key, value, isKey: false, inOpaque } satisfies RequestString;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, field, key, inOpaque });
    } else if (value !== null && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) {
        const itemField = topLevel ? name : field;
        yield { field: itemField, key, value: name, isKey: true, inOpaque } satisfies RequestString;
        stack.push({ value: item, field: itemField, key: name, inOpaque: inOpaque || opaqueKeys.has(name) });
      }
    }
  }
}
