import type { PaidOrderDeps } from '../payments/paid-order';
import { screeningRecoveries } from './disease-service';
import { giveFormBack } from './form-claims';

/**
 * The recoveries of the form kinds, for the reconciliation sweep: a consent cut short is given
 * back; a screening is the paid-order workflow's (finished when its White Glove Labs charge went
 * through, given back otherwise).
 */
export function formRecoveries(deps: PaidOrderDeps) {
  return { consent: giveFormBack, ...screeningRecoveries(deps) };
}
