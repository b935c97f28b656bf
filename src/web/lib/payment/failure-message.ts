import { ApiError } from '../api-client';
import { TokenizeError } from './card-tokenizer';

/** What a person reads when a submission that tokenizes a card or account fails. */
export function submissionFailureMessage(error: unknown): string {
  return error instanceof ApiError || error instanceof TokenizeError
    ? error.message
    : 'Something went wrong. Please try again.';
}
