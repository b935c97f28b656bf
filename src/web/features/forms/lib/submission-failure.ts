import type { FormPaymentMethod } from '../../../../domain/form-payment';
import { ApiError } from '../../../lib/api-client';
import { submissionFailureMessage } from '../../../lib/payment/failure-message';
import { fieldsOnPage } from '../../../lib/payment/payment-choice';

/** A refused submission as the form shows it. */
export interface SubmissionFailure {
  message: string;
  /** The server's field messages, on the fields this page shows. */
  fields: Record<string, string>;
  /** The text signed changed while the page was open: it must be loaded again. */
  textChanged: boolean;
  /** What the page knows is out of date (done in another tab, a price changed): refetch it. */
  pageIsStale: boolean;
}

const STALE_CODES = new Set(['ALREADY_COMPLETED', 'INITIAL_PROCESSING_REQUIRED', 'AMOUNT_CHANGED']);

export function submissionFailure(error: unknown, method: FormPaymentMethod | ''): SubmissionFailure {
  const api = error instanceof ApiError ? error : null;
  return {
    message: submissionFailureMessage(error),
    fields: api ? fieldsOnPage(api.fields, method) : {},
    textChanged: api?.code === 'AGREEMENT_CHANGED',
    pageIsStale: api !== null && STALE_CODES.has(api.code),
  };
}
