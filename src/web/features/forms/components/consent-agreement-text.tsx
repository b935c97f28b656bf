import { Stack, Text, Title } from '@mantine/core';
import { consentAgreementOf } from '../../../../domain/consent-agreement';
import { usePriceBook } from '../../../lib/price-book';
import { ScrollableText } from './scrollable-text';

/** The agreement exactly as versioned in the domain, with the fees of the price book in force. */
export function ConsentAgreementText() {
  const consentAgreement = consentAgreementOf(usePriceBook());
  return (
    <ScrollableText label={consentAgreement.title}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            {consentAgreement.title}
          </Title>
          <Text size="xs" c="gray.7">
            Version {consentAgreement.version}
          </Text>
        </div>
        {consentAgreement.sections.map((section) => (
          <Stack key={section.heading} gap={4}>
            <Title order={3} size="h6">
              {section.heading}
            </Title>
            {section.paragraphs.map((paragraph) => (
              <Text key={paragraph} size="sm">
                {paragraph}
              </Text>
            ))}
          </Stack>
        ))}
      </Stack>
    </ScrollableText>
  );
}
