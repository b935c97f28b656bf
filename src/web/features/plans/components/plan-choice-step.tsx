import { ActionIcon, Button, Group, Paper, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { formatUsd } from '../../../../domain/money';
import type { PriceBook } from '../../../../domain/price-book';
import {
  type AnnualStoragePlanId,
  BANKING_PLAN_KINDS,
  type BankingPlanKind,
  bioInsurancePlanName,
  bioInsurancePrice,
  type LongevityPlanName,
  longevityPlanLabel,
} from '../../../../domain/storage-plans';
import type { PayingForm } from '../../../lib/paying-form';
import { usePriceBook } from '../../../lib/price-book';
import {
  type BioInsuranceOffer,
  bioInsuranceOffers,
  type PlanValues,
  SUGGESTED_PLAN,
} from '../lib/plan-values';

function storageOptions(book: PriceBook) {
  return book.annualStoragePlans.map((plan) => ({
    value: plan.id,
    label:
      plan.years === 0
        ? plan.label
        : `${plan.label}: ${formatUsd(plan.cents)} (${plan.discountPercent}% prepaid discount)`,
  }));
}

const countLabel = (from: number, to: number) => (from === to ? `${from} vials` : `${from} to ${to} vials`);

/** The tier's counts left out, and what to choose instead (DESIGN.md 8.23). */
function DearerNote({ offer }: { offer: BioInsuranceOffer }) {
  const { dearer } = offer;
  if (!dearer) return null;
  return (
    <Text size="sm" c="gray.8">
      {countLabel(dearer.from, dearer.to)} would cost {dearer.from === dearer.to ? '' : 'from '}
      {formatUsd(dearer.fromCents)}, more than {dearer.next} vials at {formatUsd(dearer.nextCents)}: choose{' '}
      {dearer.next} vials instead.
    </Text>
  );
}

/** A count of vials within the chosen tier: one less, typed, one more. */
function VialStepper({
  offer,
  value,
  onChange,
  error,
}: {
  offer: BioInsuranceOffer;
  value: number;
  onChange(vials: number): void;
  error?: string;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const clamp = (vials: number) => Math.min(offer.to, Math.max(offer.from, vials));
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="One vial less"
        onClick={() => onChange(clamp(value - 1))}
        disabled={value <= offer.from}
      >
        <IconMinus size={16} aria-hidden />
      </ActionIcon>
      <TextInput
        label="Number of vials"
        description={countLabel(offer.from, offer.to)}
        inputMode="numeric"
        w={140}
        value={typed ?? String(value)}
        onChange={(event) => {
          const text = event.currentTarget.value;
          setTyped(text);
          if (/^\d{1,3}$/.test(text) && Number(text) >= offer.from && Number(text) <= offer.to) {
            onChange(Number(text));
          }
        }}
        onBlur={() => {
          if (typed !== null && /^\d{1,3}$/.test(typed)) onChange(clamp(Number(typed)));
          setTyped(null);
        }}
        error={error}
      />
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="One vial more"
        onClick={() => onChange(clamp(value + 1))}
        disabled={value >= offer.to}
      >
        <IconPlus size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}

/** Step 1: the plans, starting with nothing chosen and the spec's default offered as a suggestion. */
export function PlanChoiceStep({ form }: { form: PayingForm<PlanValues> }) {
  const book = usePriceBook();
  const { values, errors } = form;
  const offers = bioInsuranceOffers(book);
  const offer = offers.find((o) => values.Vials >= o.from && values.Vials <= o.to) ?? offers[0];
  const clearPlanError = () => form.clearError('plan');
  const nothingChosen = !values.Annual_Storage_Plan && !values.Plan;

  return (
    <Stack gap="md">
      {nothingChosen && (
        <Paper withBorder p="sm" radius="md" bg="gray.0">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              Suggested: {bioInsurancePlanName(SUGGESTED_PLAN.Vials)}, no annual storage plan:{' '}
              {formatUsd(bioInsurancePrice(book, SUGGESTED_PLAN.Vials))}.
            </Text>
            <Button
              variant="light"
              size="xs"
              onClick={() => {
                form.patch(SUGGESTED_PLAN);
                clearPlanError();
              }}
            >
              Choose the suggestion
            </Button>
          </Stack>
        </Paper>
      )}
      <Select
        label="Annual Storage Plan"
        placeholder="Choose a storage plan"
        data={storageOptions(book)}
        value={values.Annual_Storage_Plan || null}
        onChange={(value) => {
          form.patch({ Annual_Storage_Plan: (value ?? '') as AnnualStoragePlanId | '' });
          clearPlanError();
        }}
        allowDeselect={false}
      />
      <Text size="sm">
        Pay years of storage ahead at a prepaid discount (the list price is{' '}
        {formatUsd(book.storageYearListPrice)} a year).
      </Text>
      <Select
        label="Plan"
        placeholder="Choose a banking plan"
        data={[...BANKING_PLAN_KINDS]}
        value={values.Plan || null}
        onChange={(value) => {
          form.patch({ Plan: (value ?? '') as BankingPlanKind | '' });
          clearPlanError();
        }}
        allowDeselect={false}
      />
      {values.Plan === 'Bio-Insurance Plan' && offer && (
        <>
          <Radio.Group
            label="Bio-Insurance Banking Plan"
            description="Vials of 10 million cells"
            value={String(offer.from)}
            onChange={(from) => form.patch({ Vials: Number(from) })}
          >
            <Stack gap="xs" mt="xs">
              {offers.map((o) => (
                <Radio
                  key={o.from}
                  value={String(o.from)}
                  label={`${o.name}: ${countLabel(o.from, o.to)}, ${formatUsd(o.perVialCents)} a vial (${o.discountPercent}% discount)`}
                />
              ))}
            </Stack>
          </Radio.Group>
          <VialStepper
            offer={offer}
            value={values.Vials}
            onChange={(vials) => form.patch({ Vials: vials })}
            error={errors.Vials}
          />
          <DearerNote offer={offer} />
        </>
      )}
      {values.Plan === 'Longevity Plan' && (
        <Select
          label="Longevity Banking Plan"
          description="A Longevity vial holds 1 million cells"
          placeholder="Choose a Longevity plan"
          data={book.longevityPlans.map((plan) => ({
            value: plan.name,
            label: `${longevityPlanLabel(plan)}: ${formatUsd(plan.cents)}`,
          }))}
          value={values.Longevity_Banking_Plans || null}
          onChange={(value) =>
            form.patch({ Longevity_Banking_Plans: (value ?? '') as LongevityPlanName | '' })
          }
          error={errors.Longevity_Banking_Plans}
          allowDeselect={false}
        />
      )}
    </Stack>
  );
}

/** Step 1's button, below the summary on a phone, and why the plans cannot go on. */
export function PlanChoiceNext({ error, onNext }: { error: string | undefined; onNext(): void }) {
  return (
    <Stack gap={4} align="flex-start">
      <Button onClick={onNext} aria-describedby={error ? 'plan-error' : undefined}>
        Next
      </Button>
      {error && (
        <Text c="red.9" size="sm" id="plan-error" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
