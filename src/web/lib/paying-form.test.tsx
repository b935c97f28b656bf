import { Button, TextInput } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { SubmitFailure } from '../components/submit-failure';
import { renderInPortal } from '../testing/render';
import { ApiError } from './api-client';
import { usePayingForm } from './paying-form';
import { initialPaymentChoice, type PaymentChoice } from './payment/payment-choice';
import { zodResolver } from './zod-resolver';

interface Values {
  quantity: string;
  payment: PaymentChoice;
}

type Send = (request: Record<string, unknown>, idempotencyKey: string) => Promise<{ ok: true }>;

/** The smallest paying form: a quantity at $150.00 each, paid by the card on file. */
function Harness({ send, onSuccess = () => {} }: { send: Send; onSuccess?: () => void }) {
  const form = usePayingForm<Values, { quantity: number }, { ok: true }>({
    initialValues: { quantity: '', payment: { ...initialPaymentChoice(false), method: 'Credit Card' } },
    validate: zodResolver(
      z.object({ quantity: z.coerce.number().int().min(1, 'Please choose at least one') }),
    ),
    payment: { choice: (values) => values.payment, onFile: { card: true, ach: false }, today: '2026-11-23' },
    amount: (values) => (Number(values.quantity) > 0 ? Number(values.quantity) * 15_000 : null),
    request: (values) => ({ quantity: Number(values.quantity) }),
    send,
    onSuccess,
  });
  return (
    <form {...form.formProps} aria-label="Order">
      <TextInput label="Quantity" {...form.form.getInputProps('quantity')} />
      <Button type="submit" loading={form.submitting} disabled={!form.ready}>
        {form.payLabel()}
      </Button>
      <SubmitFailure message={form.failure} />
    </form>
  );
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      if (String(input) === '/api/pay/payment_config') {
        return new Response(JSON.stringify({ gateway: 'sandbox', tokenizeUrl: '/tokenize' }), {
          status: 200,
        });
      }
      throw new Error(`unexpected call ${String(input)}`);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

async function renderForm(send: Send, onSuccess?: () => void) {
  renderInPortal(<Harness send={send} onSuccess={onSuccess} />);
  const quantity = screen.getByRole('textbox', { name: 'Quantity' });
  await waitFor(() => expect((screen.getByRole('button') as HTMLButtonElement).disabled).toBe(false));
  return { quantity };
}

describe('the paying form', () => {
  it('names the amount on its button once it is known, and says Submit before', async () => {
    const { quantity } = await renderForm(vi.fn());
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDefined();
    fireEvent.change(quantity, { target: { value: '3' } });
    expect(screen.getByRole('button', { name: 'Pay $450.00' })).toBeDefined();
  });

  it("shows the domain schema's message on its field and sends nothing", async () => {
    const user = userEvent.setup();
    const send = vi.fn<Send>();
    await renderForm(send);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please choose at least one')).toBeDefined();
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the amount shown, the payment choice, and its own request', async () => {
    const user = userEvent.setup();
    const send = vi.fn<Send>(async () => ({ ok: true }));
    const { quantity } = await renderForm(send);
    fireEvent.change(quantity, { target: { value: '2' } });
    await user.click(screen.getByRole('button', { name: 'Pay $300.00' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    expect(send.mock.calls[0]?.[0]).toMatchObject({
      quantity: 2,
      PaymentMethod: 'Credit Card',
      update_card: false,
      expectedTotalCents: 30_000,
    });
  });

  it('retries an unanswered submission under its key with the same request; after an answer, a new key', async () => {
    const user = userEvent.setup();
    const send = vi
      .fn<Send>()
      .mockRejectedValueOnce(new ApiError(0, 'INTERNAL', 'The portal could not be reached.'))
      .mockRejectedValueOnce(new ApiError(503, 'PAYMENT_PENDING', 'We are confirming the payment.'))
      .mockRejectedValueOnce(new ApiError(402, 'PAYMENT_DECLINED', 'The card was declined.'))
      .mockResolvedValue({ ok: true });
    const { quantity } = await renderForm(send);
    fireEvent.change(quantity, { target: { value: '1' } });
    const pay = screen.getByRole('button', { name: 'Pay $150.00' });
    await user.click(pay);
    expect(await screen.findByText('The portal could not be reached.')).toBeDefined();
    await user.click(pay);
    expect(await screen.findByText('We are confirming the payment.')).toBeDefined();
    await user.click(pay);
    expect(await screen.findByText('The card was declined.')).toBeDefined();
    await user.click(pay);
    await waitFor(() => expect(send).toHaveBeenCalledTimes(4));
    const keys = send.mock.calls.map(([, key]) => key);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(send.mock.calls[1]?.[0]).toBe(send.mock.calls[0]?.[0]);
    expect(keys[3]).not.toBe(keys[2]);
  });

  it("puts the server's field messages on their fields and its message under the button", async () => {
    const user = userEvent.setup();
    const send = vi
      .fn<Send>()
      .mockRejectedValue(
        new ApiError(400, 'VALIDATION', 'Please check the form.', { quantity: 'At most 99 bottles' }),
      );
    const { quantity } = await renderForm(send);
    fireEvent.change(quantity, { target: { value: '150' } });
    await user.click(screen.getByRole('button', { name: 'Pay $22,500.00' }));
    expect(await screen.findByText('At most 99 bottles')).toBeDefined();
    expect(screen.getByRole('alert').textContent).toBe('Please check the form.');
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
  });

  it('sends one submission however often the button is pressed while it is on its way', async () => {
    const send = vi.fn<Send>(() => new Promise(() => {}));
    const { quantity } = await renderForm(send);
    fireEvent.change(quantity, { target: { value: '1' } });
    const form = screen.getByRole('form', { name: 'Order' });
    fireEvent.submit(form);
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(send).toHaveBeenCalledTimes(1);
  });
});
