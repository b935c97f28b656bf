import { Anchor, Text } from '@mantine/core';
import { bankPhoneText } from '../../domain/site';
import { useSiteConfig } from '../lib/site';

/**
 * How to reach the bank for a new link, after a link's failure: its phone and contact page, from
 * the bank's settings. `lead` comes first when given ("For a new one, ask the bank:").
 */
export function BankContactLine({ lead }: { lead?: string }) {
  const site = useSiteConfig().data;
  if (!site) return null;
  return (
    <Text size="sm" mt={4}>
      {lead ? `${lead} call` : 'Call'} {bankPhoneText(site.bank)} or{' '}
      <Anchor href={site.contactUrl} target="_blank" rel="noopener" c="inherit" underline="always">
        write to {site.bank.name}
      </Anchor>
      .
    </Text>
  );
}
