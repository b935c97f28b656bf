import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { PaymentChoice } from '../../lib/payment/payment-choice';

/**
 * The spec's note when ACH is chosen with no bank account on file and none being entered (spec 2
 * section 5, spec 3 sections 5 and 8), its "update payment information tab" a link to that page
 * of the portal the person is in. The same rule on every paying page: nothing while another
 * method is chosen, or while a new account is typed in.
 */
export function NoAchStoredNote({
  payment,
  achOnFile,
  physician = false,
}: {
  payment: Pick<PaymentChoice, 'method' | 'useAnotherAch'>;
  achOnFile: boolean;
  physician?: boolean;
}) {
  if (payment.method !== 'ACH Payment' || achOnFile || payment.useAnotherAch) return null;
  return (
    <Text size="sm" data-testid="no-ach-stored">
      Please store your ACH Details in the{' '}
      <Anchor component={Link} to={physician ? '/physician/payment-information' : '/payment-information'}>
        update payment information tab
      </Anchor>{' '}
      to use ACH Payment Method.
    </Text>
  );
}
