import { annualFeeMethod } from '../../../../domain/consent-form';
import { methodsOnFileOf } from '../../../../domain/form-payment';
import type { PaymentInfo } from '../../../../domain/payment-info';
import { type PaymentChoice, usesNewAch, usesNewCard } from '../../../lib/payment/payment-choice';

const last4 = (masked: string | null) => (masked ? masked.slice(-4) : null);

/**
 * Which method will pay the consent's annual storage fee, for the page's choice and what is on
 * file (the domain's rule, as the server applies it): a note, a problem, or null when the chosen
 * method itself pays it.
 */
export function annualFeeMethodOf(choice: PaymentChoice, info: PaymentInfo | undefined) {
  if (choice.method !== 'Credit Card' && choice.method !== 'ACH Payment') return null;
  const kind = choice.method === 'Credit Card' ? 'card' : 'ach';
  const card = last4(info?.Credit_Card_Number ?? null);
  const account = last4(info?.Account_Number ?? null);
  return annualFeeMethod(
    {
      kind,
      isNew: kind === 'card' ? usesNewCard(choice, methodsOnFileOf(info ?? null)) : usesNewAch(choice),
      keep: kind === 'card' ? choice.saveCard : choice.saveAch,
    },
    {
      card: card ? `${info?.Credit_Card_Type ?? 'card'} ending in ${card}` : null,
      ach: account ? `bank account ending in ${account}` : null,
    },
  );
}

/** The problem as a field error of the keep-on-file box it concerns, for the form's refusals. */
export function annualFeeProblems(choice: PaymentChoice, info: PaymentInfo | undefined) {
  const rule = annualFeeMethodOf(choice, info);
  if (!rule || !('problem' in rule)) return {};
  return { [choice.method === 'Credit Card' ? 'save_card' : 'save_ach']: rule.problem };
}
