import { Anchor, Group, Text } from '@mantine/core';
import { bankPhoneText } from '../../domain/site';
import { useSiteConfig } from '../lib/site';

/**
 * The foot of every page: whom the portal belongs to, its phone, where to write, the privacy
 * notice. The bank's details are settings (COMPANY_NAME, COMPANY_PHONE, CONTACT_URL, PRIVACY_URL).
 */
export function SiteFooter() {
  const site = useSiteConfig();
  if (!site.data) return null;
  const { bank, contactUrl } = site.data;
  return (
    <Group
      component="footer"
      gap="xs"
      justify="center"
      wrap="wrap"
      mt="xl"
      pt="md"
      pb="xs"
      style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Text size="sm" c="gray.7">
        {bank.name}
      </Text>
      <Text size="sm" c="gray.7" aria-hidden>
        ·
      </Text>
      <Anchor size="sm" href={`tel:+1${bank.phone}`}>
        {bankPhoneText(bank)}
      </Anchor>
      <Text size="sm" c="gray.7" aria-hidden>
        ·
      </Text>
      <Anchor size="sm" href={contactUrl} target="_blank" rel="noopener">
        Contact {bank.name}
      </Anchor>
      <Text size="sm" c="gray.7" aria-hidden>
        ·
      </Text>
      <Anchor size="sm" href={bank.privacyUrl} target="_blank" rel="noopener">
        Privacy
      </Anchor>
    </Group>
  );
}
