import { hasControlCharacter, textMessages } from '../../domain/text';
import { HttpError } from './http-error';
import { requestStrings } from './request-strings';

/**
 * Refuses a request holding a control character (NUL and the rest of C0 but tab and line breaks,
 * and DEL) in any string of its body, query or path, keys included, at any depth. app.ts applies it
 * to every API call before validation, so no such byte ever reaches a query: PostgreSQL refuses a
 * NUL in text, and the others are never typed by a person. The domain's text schemas say the same
 * field by field (`singleLine`, `freeText`).
 */
export function refuseControlCharacters(...parts: unknown[]) {
  for (const part of parts) {
    for (const item of requestStrings(part)) {
      if (!hasControlCharacter(item.value)) continue;
      throw new HttpError(
        'VALIDATION',
        `${item.field === '_' ? 'The request' : item.field}: ${textMessages.controlCharacter}.`,
        { [item.field]: textMessages.controlCharacter },
      );
    }
  }
}
