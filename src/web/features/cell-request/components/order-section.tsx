import { Group, Radio, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { useMemo, useState } from 'react';
import {
  type ShippingMethod,
  shipmentDateMessages,
  shipmentDateProblem,
} from '../../../../domain/carrier-calendar';
import { cellRequestMessages as m, TISSUE_TYPES, tissueLabels } from '../../../../domain/cell-request';
import { isoToUsDate, usDateToIso } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import { VIALS_PER_REQUEST } from '../../../../domain/price-book';
import type { PayingForm } from '../../../lib/paying-form';
import { usePriceBook } from '../../../lib/price-book';
import type { CellRequestValues } from '../lib/cell-request-values';

type Form = PayingForm<CellRequestValues>;

/** The carrier's dates for this order: the earliest, and (FedEx) the days it delivers. */
export interface ShipmentDates {
  earliest: string;
  dates: string[];
}

/**
 * Why the shipment date is refused, or null: the carrier calendar's rule, and for FedEx a day the
 * server did not offer (a staff blackout date). `clear`: the spec empties a date that is too early.
 */
export function shipmentDateRefusal(
  iso: string,
  method: ShippingMethod,
  dates: ShipmentDates | undefined,
): { message: string; clear: boolean } | null {
  const problem = shipmentDateProblem(iso, { method, earliest: dates?.earliest });
  if (problem) return { message: problem.message, clear: problem.reason === 'tooEarly' };
  if (dates && method === 'FedEx' && !dates.dates.includes(iso)) {
    return { message: shipmentDateMessages.blackout, clear: false };
  }
  return null;
}

/** Order: the sample, the vials, the Cell Protection Plan, the carrier and the date. */
export function OrderSection({
  form,
  dates,
  disabled,
}: {
  form: Form;
  dates: ShipmentDates | undefined;
  disabled: boolean;
}) {
  const book = usePriceBook();
  const { values, errors } = form;
  const [typedDate, setTypedDate] = useState('');
  const offered = useMemo(() => new Set(dates?.dates ?? []), [dates]);
  const input = (name: keyof CellRequestValues) => ({
    ...form.form.getInputProps(name),
    'aria-invalid': Boolean(errors[name]) || undefined,
    disabled,
  });

  // A refused date says so at once; a date too early is emptied (the spec).
  const checkDate = (iso: string, method: ShippingMethod) => {
    const refusal = shipmentDateRefusal(iso, method, dates);
    if (refusal?.clear) form.patch({ ShipmentDate: '' });
    if (refusal) form.setError('ShipmentDate', refusal.message);
    else form.clearError('ShipmentDate');
  };

  const chooseMethod = (value: string) => {
    const method: ShippingMethod = value === 'ACT VIP' ? 'ACT VIP' : 'FedEx';
    form.patch({ shipping_method: method, shippingCents: null });
    if (values.ShipmentDate) checkDate(values.ShipmentDate, method);
  };

  const onDateChange = (value: string | null) => {
    const iso = value ?? '';
    form.patch({ ShipmentDate: iso });
    if (iso) checkDate(iso, values.shipping_method);
    else form.clearError('ShipmentDate');
  };

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Order
      </Title>
      <Select
        label="Sample Type"
        placeholder="Select"
        data={TISSUE_TYPES.map((t) => ({ value: t, label: tissueLabels[t] }))}
        {...input('Tissue_Info')}
      />
      <Radio.Group label="Infectious Disease" {...form.form.getInputProps('Infectious_Disease')}>
        <Group mt="xs">
          <Radio value="not treated" label="Not treated for an infectious disease" />
          <Radio value="treated" label="Treated for an infectious disease" />
        </Group>
      </Radio.Group>
      {values.Infectious_Disease === 'treated' && (
        <TextInput
          label="Name of the infectious disease"
          maxLength={200}
          {...input('Infectious_Disease_Name')}
        />
      )}
      <Select
        label="Number of Vials"
        placeholder="Select"
        data={Array.from({ length: VIALS_PER_REQUEST.max }, (_, i) => String(i + 1))}
        {...input('NumberOfVials')}
      />
      <Text size="sm">
        {formatUsd(book.vialPrice)} per vial (10 million cells). Your pre-paid vials are used first: each
        Bio-Insurance vial (10 million cells) covers one vial, then 10 Longevity vials (1 million cells each)
        cover one vial. Fewer than 10 Longevity vials cannot cover a vial: that vial is charged, and your
        Longevity vials stay on your plan for later. The Cell Protection Plan costs{' '}
        {formatUsd(book.cppPerVial)} per vial and replaces cells lost or delayed past 72 hours.
      </Text>
      <Radio.Group label="Cell Protection Plan (CPP)" {...form.form.getInputProps('CPP')}>
        <Group mt="xs">
          <Radio value="Yes" label="Yes" />
          <Radio value="No" label="No" />
        </Group>
      </Radio.Group>
      <Radio.Group
        label="Shipping Method"
        value={values.shipping_method}
        onChange={chooseMethod}
        error={errors.shipping_method}
      >
        <Group mt="xs">
          <Radio value="FedEx" label="FedEx" />
          <Radio value="ACT VIP" label="ACT VIP" />
        </Group>
      </Radio.Group>
      <Text size="sm">{m.vipNote}</Text>
      {dates && <Text size="sm">The earliest arrival date is {isoToUsDate(dates.earliest)}.</Text>}
      <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 0 }}>
        <DateInput
          label="Shipment Date"
          placeholder="MM/DD/YYYY"
          valueFormat="MM/DD/YYYY"
          dateParser={(text) => {
            setTypedDate(text);
            return usDateToIso(text);
          }}
          value={values.ShipmentDate || null}
          onChange={onDateChange}
          onBlur={() => {
            if (typedDate.trim() && !usDateToIso(typedDate.trim())) {
              form.setError('ShipmentDate', shipmentDateMessages.invalid);
            }
          }}
          excludeDate={(date) => Boolean(dates) && !offered.has(String(date).slice(0, 10))}
          defaultDate={dates?.earliest}
          required
          clearable
          clearButtonProps={{ 'aria-label': 'Clear Shipment Date' }}
          popoverProps={{ withinPortal: true }}
          error={errors.ShipmentDate}
          aria-invalid={Boolean(errors.ShipmentDate) || undefined}
          disabled={disabled}
        />
      </DatesProvider>
    </Stack>
  );
}
