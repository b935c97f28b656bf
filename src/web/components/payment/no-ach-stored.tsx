import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';

/**
 * The spec's note when ACH is chosen, or offered, with no bank account on file (spec 2 section 5,
 * spec 3 sections 5 and 8), its "update payment information tab" a link to that page of the
 * portal the person is in.
 */
export function NoAchStoredNote({ physician = false }: { physician?: boolean }) {
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
