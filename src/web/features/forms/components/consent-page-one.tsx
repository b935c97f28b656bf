import { Radio, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { consentAgreementOf, RELEASE_TO_INDIVIDUAL } from '../../../../domain/consent-agreement';
import { type ConsentPageOne, MEDICATIONS_QUESTION } from '../../../../domain/consent-form';
import { readableDescription } from '../../../components/readable-description';
import { usePriceBook } from '../../../lib/price-book';
import { ConsentAgreementText } from './consent-agreement-text';

interface Props {
  answers: ConsentPageOne;
  onChange(answers: ConsentPageOne): void;
  errors: Record<string, string>;
}

/** Page 1: the agreement, Addendum A (in the event of death) and the Current Medications question. */
export function ConsentPageOneFields({ answers, onChange, errors }: Props) {
  // Addendum A as it is signed: the same words go into the agreement's text and its PDF.
  const addendum = consentAgreementOf(usePriceBook()).addendumA;
  const set = (field: keyof ConsentPageOne) => (value: string) => onChange({ ...answers, [field]: value });
  const text = (field: keyof ConsentPageOne) => ({
    name: field,
    value: answers[field] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => set(field)(e.currentTarget.value),
    error: errors[field],
    required: true,
  });

  return (
    <Stack gap="lg">
      <ConsentAgreementText />

      <Stack gap="sm">
        <Title order={2} size="h4">
          {addendum.heading}
        </Title>
        <Text size="sm">{addendum.intro}</Text>
        <Radio.Group
          label="What the bank is to do with my tissue"
          name="Tissue_deliver"
          value={answers.Tissue_deliver ?? ''}
          onChange={set('Tissue_deliver')}
          error={errors.Tissue_deliver}
          withAsterisk
        >
          <Stack gap="sm" mt="xs">
            {addendum.options.map(({ option, explanation }) => (
              <Radio
                key={option}
                value={option}
                label={option}
                description={explanation}
                styles={readableDescription}
                aria-invalid={Boolean(errors.Tissue_deliver) || undefined}
              />
            ))}
          </Stack>
        </Radio.Group>
        {answers.Tissue_deliver === RELEASE_TO_INDIVIDUAL && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" autoComplete="off" {...text('Addendum_name')} />
            <TextInput
              label="Date of Birth"
              placeholder="MM/DD/YYYY"
              inputMode="numeric"
              maxLength={10}
              autoComplete="off"
              {...text('Addendum_dob')}
            />
            <TextInput label="Address" autoComplete="off" {...text('Addendum_address')} />
            <TextInput
              label="Phone"
              inputMode="tel"
              maxLength={15}
              autoComplete="off"
              {...text('Addendum_phone')}
            />
            <TextInput label="Relationship" autoComplete="off" {...text('Relationship')} />
          </SimpleGrid>
        )}
      </Stack>

      <Stack gap="sm">
        <Title order={2} size="h4">
          Current Medications
        </Title>
        <Radio.Group
          label={MEDICATIONS_QUESTION}
          name="Medications"
          value={answers.Medications ?? ''}
          onChange={set('Medications')}
          error={errors.Medications}
          withAsterisk
        >
          <SimpleGrid cols={2} maw={240} mt="xs">
            {['Yes', 'No'].map((option) => (
              <Radio
                key={option}
                value={option}
                label={option}
                aria-invalid={Boolean(errors.Medications) || undefined}
              />
            ))}
          </SimpleGrid>
        </Radio.Group>
        {answers.Medications === 'Yes' && (
          <Textarea
            label="Medications you are taking"
            autosize
            minRows={3}
            maxLength={1000}
            {...text('Medications_taking')}
          />
        )}
      </Stack>
    </Stack>
  );
}
