import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { initialProcessingInstructions } from '../../../../domain/initial-processing';
import { usePriceBook } from '../../../lib/price-book';

/** Page 1: banking, shipping and payment instructions, and the reminders (spec 2, section 9). */
export function Instructions({ onNext }: { onNext(): void }) {
  const book = usePriceBook();
  return (
    <Stack gap="lg">
      {initialProcessingInstructions(book).map((section) => (
        <Stack key={section.heading} gap="xs">
          <Title order={2} size="h4">
            {section.heading}
          </Title>
          {section.paragraphs.map((paragraph) => (
            <Text key={paragraph} size="sm">
              {paragraph}
            </Text>
          ))}
        </Stack>
      ))}
      <Group justify="flex-end">
        <Button onClick={onNext}>Next Page</Button>
      </Group>
    </Stack>
  );
}
