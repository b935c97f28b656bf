import type { FormSubmissionResponse } from '../../../domain/consent-form';
import type { RecoveryRun } from '../../lib/run-once';
import { recoverDiseaseForm } from './disease-service';
import { type FormClaim, type FormDeps, giveFormBack } from './form-claims';

/**
 * The recoveries of the form kinds, for the reconciliation sweep: a consent cut short is given
 * back; a screening form finishes when its White Glove Labs charge went through.
 */
export function formRecoveries(deps: FormDeps) {
  return {
    consent: giveFormBack,
    'infectious-disease': (run: RecoveryRun<FormSubmissionResponse>, claim: FormClaim | null) =>
      recoverDiseaseForm(deps, run, claim),
  };
}
