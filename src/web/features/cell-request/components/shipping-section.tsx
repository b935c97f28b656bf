import { Button, Checkbox, Grid, Group, Modal, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { ClientRecord } from '../../../../domain/client';
import { type ResolvedAddress, shippingMessages } from '../../../../domain/shipping';
import { ApiError } from '../../../lib/api-client';
import type { PayingForm } from '../../../lib/paying-form';
import { useSiteConfig } from '../../../lib/site';
import { useFedexShipQuote } from '../api/get-fedex-ship-quote';
import { useVerifyAddress } from '../api/verify-address';
import {
  ADDRESS_FIELDS,
  addressOf,
  addressProblems,
  type CellRequestValues,
  carrierAddressOf,
  emptyAddress,
  hasPreferredAddress,
  preferredAddressOf,
  type ShippingAddress,
} from '../lib/cell-request-values';

type Form = PayingForm<CellRequestValues>;

/** The address as FedEx checks and quotes it: its notice, its suggestion, and the quote kept in the form. */
export function useAddressCheck(form: Form) {
  const verify = useVerifyAddress();
  const quote = useFedexShipQuote();
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [suggestion, setSuggestion] = useState<ResolvedAddress | null>(null);

  const requestQuote = async (address: ShippingAddress) => {
    if (form.form.getValues().shipping_method === 'ACT VIP') return;
    try {
      const answer = await quote.mutateAsync({ ...carrierAddressOf(address), shipping_method: 'FedEx' });
      form.patch({ shippingCents: answer.ShippingFeeChargedCents });
    } catch (error) {
      form.patch({ shippingCents: null });
      setNotice({
        ok: false,
        text: error instanceof ApiError ? error.message : shippingMessages.quoteFailed,
      });
    }
  };

  const verified = async (address: ShippingAddress) => {
    form.patch({ AddressFedExVerified: true });
    setNotice({ ok: true, text: shippingMessages.addressVerified });
    await requestQuote(address);
  };

  return {
    pending: verify.isPending || quote.isPending,
    notice,
    suggestion,
    requestQuote,
    /** Any change to the address: it is no longer verified, nor quoted. */
    changed() {
      form.patch({ AddressFedExVerified: false, shippingCents: null });
      setNotice(null);
    },
    async verify() {
      const address = addressOf(form.form.getValues());
      const problems = addressProblems(address);
      if (Object.keys(problems).length > 0) {
        form.form.setErrors((e) => ({ ...e, ...problems }));
        // The spec's sentence for a quote asked without the details, beside each field's own.
        setNotice({ ok: false, text: shippingMessages.quoteDetailsMissing });
        return false;
      }
      setNotice(null);
      try {
        const answer = await verify.mutateAsync(carrierAddressOf(address));
        const resolved = answer.output.resolvedAddresses[0];
        if (answer.AddressFedExVerified || !resolved) await verified(address);
        else setSuggestion(resolved);
      } catch (error) {
        setNotice({
          ok: false,
          text: error instanceof ApiError ? error.message : shippingMessages.addressFailed,
        });
      }
      return true;
    },
    async accept() {
      if (!suggestion) return;
      const next = {
        ...addressOf(form.form.getValues()),
        street: suggestion.streetLinesToken.join(' '),
        city: suggestion.city,
        state: suggestion.stateOrProvinceCode,
        ZipCode: suggestion.postalCode,
      };
      form.patch(next);
      for (const { field } of ADDRESS_FIELDS) form.clearError(field);
      setSuggestion(null);
      await verified(next);
    },
    async bypass() {
      setSuggestion(null);
      form.patch({ AddressFedExVerified: false });
      await requestQuote(addressOf(form.form.getValues()));
    },
    dismiss: () => setSuggestion(null),
  };
}

export type AddressCheck = ReturnType<typeof useAddressCheck>;

/** Shipping Information: the preferred address or a new one, checked and quoted by FedEx. */
export function ShippingSection({
  form,
  client,
  check,
  disabled,
  onInvalid,
}: {
  form: Form;
  client: ClientRecord;
  check: AddressCheck;
  disabled: boolean;
  onInvalid(): void;
}) {
  const { values, errors } = form;
  const bankPhone = useSiteConfig().data?.bank.phone ?? '';
  const field = (name: keyof CellRequestValues) => ({
    ...form.form.getInputProps(name),
    'aria-invalid': Boolean(errors[name]) || undefined,
    disabled,
  });
  const chooseShipTo = (value: string) => {
    const choice = value === 'Preferred' ? 'Preferred' : 'New';
    form.patch({
      ShippingInfo: choice,
      ...(choice === 'Preferred' ? preferredAddressOf(client, bankPhone) : emptyAddress),
    });
    for (const { field } of ADDRESS_FIELDS) form.clearError(field);
    check.changed();
  };

  return (
    <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Title order={2} size="h4" component="legend">
        Shipping Information
      </Title>
      {hasPreferredAddress(client) && (
        <Radio.Group
          label="Shipping address"
          value={values.ShippingInfo}
          onChange={chooseShipTo}
          error={errors.ShippingInfo}
        >
          <Group mt="xs">
            <Radio value="Preferred" label="Preferred Shipping to Medical Professional" />
            <Radio value="New" label="A new address" />
          </Group>
        </Radio.Group>
      )}
      <TextInput label="Clinic Name" maxLength={100} {...field('clinicName')} />
      <Grid gap="sm">
        {ADDRESS_FIELDS.map(({ field: name, label, autoComplete }) => {
          const props = field(name);
          return (
            <Grid.Col key={name} span={{ base: 12, sm: 6 }}>
              <TextInput
                label={label}
                name={name}
                required
                autoComplete={autoComplete}
                type={name === 'phone' ? 'tel' : undefined}
                {...props}
                onChange={(event) => {
                  props.onChange(event);
                  check.changed();
                }}
              />
            </Grid.Col>
          );
        })}
      </Grid>
      <Checkbox
        label="Save this address for future requests"
        {...form.form.getInputProps('saveAddressForFuture', { type: 'checkbox' })}
        disabled={disabled}
      />
      <Group>
        <Button
          variant="light"
          onClick={async () => {
            if (!(await check.verify())) onInvalid();
          }}
          loading={check.pending}
        >
          Verify address
        </Button>
        {values.AddressFedExVerified && <Text size="sm">FedEx verified</Text>}
      </Group>
      {check.notice && (
        // green.9 is under 4.5:1 on white for small text (axe: color-contrast); teal.9 passes.
        <Text size="sm" c={check.notice.ok ? 'teal.9' : 'red.8'} role={check.notice.ok ? 'status' : 'alert'}>
          {check.notice.text}
        </Text>
      )}
      {errors.shipping && (
        <Text size="sm" c="red.8" role="alert">
          {errors.shipping}
        </Text>
      )}

      <Modal
        opened={check.suggestion !== null}
        onClose={check.dismiss}
        title="FedEx suggests a standardized address"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {check.suggestion && (
          <Stack>
            <Text size="sm">{shippingMessages.addressSuggested}</Text>
            <Text fw={600} data-testid="suggested-address">
              {check.suggestion.streetLinesToken.join(' ')}, {check.suggestion.city},{' '}
              {check.suggestion.stateOrProvinceCode} {check.suggestion.postalCode}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={check.bypass}>
                Bypass Suggestion
              </Button>
              <Button onClick={check.accept}>Accept Suggestion</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
