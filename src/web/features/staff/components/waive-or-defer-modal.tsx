import { Alert, Button, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { FormEvent } from 'react';
import { isoToUsDate } from '../../../../domain/dates';
import { formatUsd } from '../../../../domain/money';
import {
  type BillingYear,
  type ChangeBillingYearEntry,
  changeBillingYearEntrySchema,
} from '../../../../domain/storage-billing';
import { zodResolver } from '../../../lib/zod-resolver';
import { useChangeBillingYear } from '../api/billing-year-change';
import { useFormSubmission } from './use-form-submission';

const EMPTY: ChangeBillingYearEntry = { action: 'waive', until: '', reason: '' };

/** The year's facts at the top of the form: whose, which, how much and when. */
function yearLine(year: BillingYear): string {
  const which = year.yearNumber === null ? 'annual storage' : `storage year ${year.yearNumber}`;
  return `${year.clientName} (${year.clientActId}), ${which}: ${formatUsd(year.amountCents)} due ${isoToUsDate(year.dueDate)}.`;
}

/** The fields of this form; a message for any other field is shown above it. */
const FIELDS = ['until', 'reason'] as const;

function WaiveOrDeferForm({
  year,
  change,
  onCancel,
  onChanged,
}: {
  year: BillingYear;
  change: ReturnType<typeof useChangeBillingYear>;
  onCancel: () => void;
  onChanged: (message: string) => void;
}) {
  const form = useForm<ChangeBillingYearEntry>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zodResolver(changeBillingYearEntrySchema),
  });
  const submit = useFormSubmission(FIELDS, form, change);
  const defer = form.values.action === 'defer';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!submit.start()) return;
    change.mutate(
      {
        yearId: year.id,
        clientActId: year.clientActId,
        request: changeBillingYearEntrySchema.parse(form.getValues()),
      },
      {
        onSuccess: (answer) => onChanged(answer.message),
        onError: submit.onError,
        onSettled: submit.onSettled,
      },
    );
  };
  const { failure } = submit;

  return (
    <form ref={submit.formRef} onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{yearLine(year)}</Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Radio.Group
          {...form.getInputProps('action')}
          onChange={(action) => {
            form.setFieldValue('action', action as ChangeBillingYearEntry['action']);
            form.clearFieldError('until');
          }}
          disabled={change.isPending}
        >
          <Stack gap="xs">
            <Radio value="waive" label="Waive this year" />
            <Radio value="defer" label="Defer the charge to" />
          </Stack>
        </Radio.Group>
        {defer && (
          <TextInput
            label="Charge on"
            placeholder="MM/DD/YYYY"
            inputMode="numeric"
            autoComplete="off"
            w={220}
            // Under its radio's label, which it completes.
            ml={32}
            maw="calc(100% - 32px)"
            disabled={change.isPending}
            {...form.getInputProps('until')}
          />
        )}
        <Textarea
          label="Reason"
          required
          autosize
          minRows={2}
          maxRows={6}
          maxLength={500}
          disabled={change.isPending}
          {...form.getInputProps('reason')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending}>
            {defer ? 'Defer charge' : 'Waive year'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * "Waive or defer" an open storage year (admins): waive it (storage is paid through it) or move its
 * charge to a later day, with a reason kept on the year. Closed on success; the page says so. It
 * stays open while the answer is awaited, so the answer always has somewhere to show.
 */
export function WaiveOrDeferModal({
  year,
  opened,
  onClose,
  onChanged,
}: {
  year: BillingYear | null;
  opened: boolean;
  onClose: () => void;
  onChanged: (message: string) => void;
}) {
  const change = useChangeBillingYear();
  const close = () => {
    if (change.isPending) return;
    change.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Waive or defer"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {year && (
        <WaiveOrDeferForm
          key={year.id}
          year={year}
          change={change}
          onCancel={close}
          onChanged={(message) => {
            change.reset();
            onChanged(message);
          }}
        />
      )}
    </Modal>
  );
}
