import { Button, Group, Stack } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import {
  cellRequestCardEmptyMessages,
  cellRequestMessages as m,
  type SendCellRequestInput,
  type SendCellRequestResponse,
  sendCellRequestSchema,
} from '../../../../domain/cell-request';
import type { CellRequestPayer } from '../../../../domain/cell-request-objection';
import type { ClientRecord } from '../../../../domain/client';
import { addDays } from '../../../../domain/dates';
import { type MethodsOnFile, methodsOnFileOf } from '../../../../domain/form-payment';
import type { PaymentInfo } from '../../../../domain/payment-info';
import type { StorageCharges } from '../../../../domain/payments';
import { shippingMessages } from '../../../../domain/shipping';
import { PayingFormLayout } from '../../../components/payment/paying-form-layout';
import { SubmitFailure } from '../../../components/submit-failure';
import { usePayingForm } from '../../../lib/paying-form';
import { initialPaymentChoice } from '../../../lib/payment/payment-choice';
import { usePriceBook } from '../../../lib/price-book';
import { useSiteConfig } from '../../../lib/site';
import { zodResolver } from '../../../lib/zod-resolver';
import { useClientVials } from '../api/get-client-vials';
import { useShipmentDates } from '../api/get-shipment-dates';
import { useSendCellRequest } from '../api/send-cell-request';
import {
  addressOf,
  type CellRequestValues,
  cellRequestOf,
  initialCellRequest,
  vialCountOf,
} from '../lib/cell-request-values';
import { orderSummary } from '../lib/order-summary';
import { OrderSection, shipmentDateRefusal } from './order-section';
import { OrderSummaryPanel } from './order-summary-panel';
import { PaymentSection } from './payment-section';
import { ShippingSection, useAddressCheck } from './shipping-section';

const checkRequest = zodResolver(sendCellRequestSchema, cellRequestOf);

/** The saved card by default, else the saved account; a physician's own new card when none. */
function firstMethodOf(onFile: MethodsOnFile, payer: CellRequestPayer) {
  const method = onFile.card ? 'Credit Card' : onFile.ach ? 'ACH Payment' : '';
  return {
    ...initialPaymentChoice(false),
    method: method || (payer === 'physician' ? 'Credit Card' : ''),
  } as const;
}

/**
 * The Stem Cell Request Form itself, for a client whose consent is signed and who has a method on
 * file; or a physician's for a client they act for, paid by the client's method on file or the
 * physician's own (issue 23).
 */
export function CellRequestForm({
  client,
  paymentInfo,
  physician,
  clientId,
  today,
  overdueStorage,
  onAmountChanged,
  onAddressVerifiedChange,
  onSubmitted,
}: {
  client: ClientRecord;
  /** The client's methods on file. */
  paymentInfo: PaymentInfo;
  /** A physician's request: their own methods on file. */
  physician?: { paymentInfo: PaymentInfo };
  clientId: string;
  today: string;
  /** Annual storage overdue that joins this order's charge (none: nothing overdue). */
  overdueStorage?: { years: number; charges: StorageCharges };
  /** The server's total differed from the page's: what the page read from elsewhere is read again. */
  onAmountChanged?: () => void;
  /** The address was verified with FedEx on the form, or changed since (the release checklist follows it). */
  onAddressVerifiedChange?: (verified: boolean) => void;
  onSubmitted(response: SendCellRequestResponse): void;
}) {
  const [paidBy, setPaidBy] = useState<CellRequestPayer>('client');
  const payerInfo = physician && paidBy === 'physician' ? physician.paymentInfo : paymentInfo;
  const onFile = methodsOnFileOf(payerInfo);
  const bankPhone = useSiteConfig().data?.bank.phone ?? '';
  const book = usePriceBook();
  const send = useSendCellRequest();
  // The rules and the amount read the queries below, which read the values: they run after render.
  const form = usePayingForm<CellRequestValues, SendCellRequestInput, SendCellRequestResponse>({
    initialValues: initialCellRequest(client, onFile, bankPhone),
    validate: (values) => validate(values),
    payment: {
      choice: (values) => values.payment,
      onFile,
      today,
      cardEmpty: cellRequestCardEmptyMessages,
    },
    amount: (values) => summaryOf(values)?.totalCents ?? null,
    request: (values) => ({
      ...cellRequestOf(values),
      ...(physician ? { Client_id: clientId, PaidBy: paidBy } : {}),
    }),
    send: (request, idempotencyKey) =>
      send.mutateAsync({ body: request as SendCellRequestInput, idempotencyKey }),
    onSuccess: onSubmitted,
    onRefused: (error, values) => {
      if (error.code !== 'AMOUNT_CHANGED') return;
      onAmountChanged?.();
      void clientVials.refetch();
      if (values.shipping_method === 'FedEx') void check.requestQuote(addressOf(values));
    },
    onInvalid: (errors) => {
      if (errors.shipping && Object.keys(errors).length === 1) form.setFailure(errors.shipping);
    },
  });
  const { values } = form;
  const vials = vialCountOf(values);
  const clientVials = useClientVials(clientId, vials);
  const range = useMemo(() => ({ from: today, to: addDays(today, 365) }), [today]);
  const dates = useShipmentDates(clientId, range, values.shipping_method, vials || 1);
  const check = useAddressCheck(form);
  const addressVerified = values.AddressFedExVerified;
  useEffect(() => {
    onAddressVerifiedChange?.(addressVerified);
  }, [addressVerified, onAddressVerifiedChange]);

  function summaryOf(v: CellRequestValues) {
    const count = vialCountOf(v);
    return count > 0 && clientVials.data
      ? orderSummary(book, {
          vials: count,
          prePaidVials: clientVials.data.PrePaidVials,
          prePaidTaken: {
            bioInsurance: clientVials.data.BioInsuranceVialsUsed,
            longevity: clientVials.data.LongevityVialsUsed,
          },
          payableVialsCents: clientVials.data.PayableAmountCents,
          cpp: v.CPP === 'Yes',
          shippingCents: v.shippingCents,
          actVip: v.shipping_method === 'ACT VIP',
          card: v.payment.method === 'Credit Card',
          ...(overdueStorage ? { overdueStorage } : {}),
        })
      : null;
  }
  const summary = summaryOf(values);

  /** The schema's verdict, and what only the page knows: the saved address's e-mail, the date, the quote. */
  function validate(v: CellRequestValues): Record<string, string> {
    const problems = checkRequest(v);
    if (v.ShippingInfo === 'Preferred' && !v.ShippingEmail) problems.ShippingEmail = m.savedAddressEmail;
    const date = v.ShipmentDate && shipmentDateRefusal(v.ShipmentDate, v.shipping_method, dates.data);
    if (date && !problems.ShipmentDate) problems.ShipmentDate = date.message;
    if (v.shipping_method === 'FedEx' && v.shippingCents === null && !problems.street) {
      problems.shipping = shippingMessages.shippingAmountFailed;
    }
    return problems;
  }

  const busy = form.submitting || check.pending;

  return (
    <form {...form.formProps} aria-label="Stem Cell Request Form">
      <PayingFormLayout
        fieldsSpan={8}
        fields={
          <Stack gap="lg">
            <ShippingSection
              form={form}
              client={client}
              check={check}
              disabled={busy}
              onInvalid={form.focusInvalid}
            />
            <OrderSection form={form} dates={dates.data} disabled={busy} />
            <PaymentSection
              form={form}
              paymentInfo={payerInfo}
              {...(physician
                ? {
                    payer: {
                      value: paidBy,
                      onChange: (next: CellRequestPayer) => {
                        setPaidBy(next);
                        const info = next === 'physician' ? physician.paymentInfo : paymentInfo;
                        form.setPayment(firstMethodOf(methodsOnFileOf(info), next));
                      },
                    },
                  }
                : {})}
              today={today}
              totalCents={summary?.totalCents ?? null}
              disabled={busy}
            />
          </Stack>
        }
        summary={<OrderSummaryPanel summary={summary} />}
        actions={
          <Stack gap="xs">
            <Group justify="flex-end">
              <Button type="submit" loading={form.submitting} disabled={busy && !form.submitting}>
                {form.payLabel()}
              </Button>
            </Group>
            <SubmitFailure message={form.failure} />
          </Stack>
        }
      />
    </form>
  );
}
