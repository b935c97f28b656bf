import { Alert, Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { type FormPaymentMethod, methodsOnFileOf } from '../../../domain/form-payment';
import type { PaymentInfo } from '../../../domain/payment-info';
import { useClient } from '../../lib/client-record';
import { type PaymentChoice, usesNewCard } from '../../lib/payment/payment-choice';
import { AchFields, CardFields, cardPrefilledFrom, emptyAch, emptyCard } from './card-fields';
import { SavedAch, SavedCard } from './saved-method';

interface Props {
  methods: readonly FormPaymentMethod[];
  value: PaymentChoice;
  onChange(value: PaymentChoice): void;
  /** The methods on file; undefined while loading or when none could be read. */
  info: PaymentInfo | undefined;
  errors: Record<string, string>;
  today: string;
  disabled?: boolean;
  /** What paying by check means on this form. */
  checkNote?: ReactNode;
  /**
   * The physician variant: the card is the physician's own, so a new one starts blank rather than
   * with the client's address, and saving it keeps it on the physician's file.
   */
  payer?: 'client' | 'physician';
  /** The "save on file" boxes' words where a form's spec names them (the store's, spec 3). */
  saveLabels?: { card: string; ach: string };
  /**
   * Only the card or account on file (a physician paying with the client's): no other is entered
   * here, and with none on file the choice says so.
   */
  onFileOnly?: boolean;
}

/**
 * Payment Method of the forms (spec 2, sections 2 and 4) and the Stem Cell Request Form (spec 3,
 * section 4): the saved card or account by default,
 * or a new one after "Use Another Credit Card" / "Use Another ACH", which start blank but for the
 * card's billing address, taken from the client's address of record.
 */
export function FormPaymentChoice({
  methods,
  value,
  onChange,
  info,
  errors,
  today,
  disabled,
  checkNote,
  payer = 'client',
  saveLabels,
  onFileOnly = false,
}: Props) {
  const onFile = methodsOnFileOf(info ?? null);
  const client = useClient();
  const newCard = () => (payer === 'client' ? cardPrefilledFrom(client.data) : emptyCard);
  const set = (patch: Partial<PaymentChoice>) => onChange({ ...value, ...patch });
  const invalid = Boolean(errors.PaymentMethod) || undefined;

  // Another method, or a fresh entry, starts blank: numbers typed earlier are not kept around.
  const chooseMethod = (method: string) =>
    set({
      method: method as FormPaymentMethod,
      useAnotherCard: false,
      useAnotherAch: false,
      card: newCard(),
      ach: emptyAch,
    });

  return (
    <Stack>
      <Radio.Group
        label="Payment Method"
        value={value.method}
        onChange={chooseMethod}
        error={errors.PaymentMethod}
        withAsterisk
      >
        <Group mt="xs">
          {methods.map((method) => (
            <Radio key={method} value={method} label={method} aria-invalid={invalid} disabled={disabled} />
          ))}
        </Group>
      </Radio.Group>

      {onFileOnly && value.method === 'Credit Card' && (
        <Stack>
          {onFile.card && info ? (
            <SavedCard info={info} />
          ) : (
            <Text size="sm">No credit card is on file.</Text>
          )}
        </Stack>
      )}
      {onFileOnly && value.method === 'ACH Payment' && (
        <Stack>
          {onFile.ach && info ? <SavedAch info={info} /> : <Text size="sm">No bank account is on file.</Text>}
        </Stack>
      )}

      {!onFileOnly && value.method === 'Credit Card' && (
        <Stack>
          {onFile.card && info ? (
            <>
              {!value.useAnotherCard && <SavedCard info={info} />}
              <Checkbox
                label="Use Another Credit Card"
                checked={value.useAnotherCard}
                onChange={(e) => set({ useAnotherCard: e.currentTarget.checked, card: newCard() })}
                error={errors.update_card}
                aria-invalid={Boolean(errors.update_card) || undefined}
                disabled={disabled}
              />
            </>
          ) : (
            <Text size="sm">No credit card is on file. Please enter the card to use.</Text>
          )}
          {usesNewCard(value, onFile) && (
            <>
              <CardFields
                values={value.card}
                onChange={(card) => set({ card })}
                errors={errors}
                today={today}
                disabled={disabled}
              />
              <Checkbox
                label={
                  saveLabels?.card ??
                  (payer === 'client'
                    ? 'Save this card on file for future payments'
                    : 'Save this credit card on file for future payments')
                }
                checked={value.saveCard}
                onChange={(e) => set({ saveCard: e.currentTarget.checked })}
                disabled={disabled}
              />
            </>
          )}
        </Stack>
      )}

      {!onFileOnly && value.method === 'ACH Payment' && (
        <Stack>
          {onFile.ach && info
            ? !value.useAnotherAch && <SavedAch info={info} />
            : !value.useAnotherAch && <Text size="sm">No bank account is on file.</Text>}
          <Checkbox
            label="Use Another ACH"
            checked={value.useAnotherAch}
            onChange={(e) => set({ useAnotherAch: e.currentTarget.checked, ach: emptyAch })}
            error={errors.update_ach}
            aria-invalid={Boolean(errors.update_ach) || undefined}
            disabled={disabled}
          />
          {value.useAnotherAch && (
            <>
              <AchFields
                values={value.ach}
                onChange={(ach) => set({ ach })}
                errors={errors}
                disabled={disabled}
              />
              <Checkbox
                label={saveLabels?.ach ?? 'Save this account on file for future payments'}
                checked={value.saveAch}
                onChange={(e) => set({ saveAch: e.currentTarget.checked })}
                disabled={disabled}
              />
            </>
          )}
        </Stack>
      )}

      {value.method === 'Check' && checkNote && (
        <Alert color="gray" variant="light" p="sm">
          {checkNote}
        </Alert>
      )}
    </Stack>
  );
}
