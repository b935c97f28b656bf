import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { SampleForm } from './sample-form';

let sends = 0;
beforeEach(() => {
  sends = 0;
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/get_PaymentInfo') return json({ result: { Credit_Card_Number: null } });
      if (path === '/api/pay/payment_config') return json({ gateway: 'sandbox', tokenizeUrl: '/tokenize' });
      if (path === '/api/pay/price_book')
        return json({ version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
      if (path === '/api/pay/send_ProcessData') sends += 1;
      throw new Error(`unexpected call ${path}`);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the new sample form', () => {
  it("gives the spec's messages, focuses the first, and names the card's amount on the button", async () => {
    const user = userEvent.setup();
    renderInPortal(<SampleForm onPrevious={() => {}} onSubmitted={() => {}} />);
    const submit = await screen.findByRole('button', { name: 'Submit' });
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    await user.click(submit);
    expect(await screen.findByText('Please enter first name')).toBeDefined();
    expect(screen.getByText('Please select sample type')).toBeDefined();
    expect(screen.getByText('Please select payment')).toBeDefined();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'First Name' })),
    );

    await user.click(screen.getByRole('radio', { name: 'Adipose' }));
    await user.click(screen.getByRole('radio', { name: 'Credit card' }));
    // Adipose by card: $2,500.00 + 3%.
    expect(screen.getByRole('button', { name: 'Pay $2,575.00' })).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'Check in the shipment' }));
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDefined();
    expect(sends).toBe(0);
  });

  it("gives the spec's new-card messages: empty, then a number that fails the check and a short CVV", async () => {
    const user = userEvent.setup();
    renderInPortal(<SampleForm onPrevious={() => {}} onSubmitted={() => {}} />);
    const submit = await screen.findByRole('button', { name: 'Submit' });
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByRole('radio', { name: 'Adipose' }));
    await user.click(screen.getByRole('radio', { name: 'Credit card' }));
    await user.click(screen.getByRole('button', { name: 'Pay $2,575.00' }));
    const number = screen.getByRole('textbox', { name: 'Credit Card Number' });
    await waitFor(() => expect(errorUnder(number)).toBe('Please enter credit card number'));
    const cvv = screen.getByLabelText(/^CVV/);
    expect(errorUnder(cvv)).toBe('Cannot be empty');
    expect(errorUnder(screen.getByRole('textbox', { name: 'Billing First Name' }))).toBe(
      'Please enter first name',
    );
    expect(errorUnder(screen.getByRole('textbox', { name: 'Billing Last Name' }))).toBe(
      'Please enter last name',
    );
    expect(errorUnder(screen.getByRole('combobox', { name: 'Expiry Month' }))).toBe('Cannot be empty');
    expect(errorUnder(screen.getByRole('combobox', { name: 'Expiry Year' }))).toBe('Cannot be empty');

    fireEvent.change(number, { target: { value: '4111 1111 1111 1112' } });
    fireEvent.change(cvv, { target: { value: '12' } });
    await user.click(screen.getByRole('button', { name: 'Pay $2,575.00' }));
    await waitFor(() => expect(errorUnder(number)).toBe('Invalid credit card number.'));
    expect(errorUnder(cvv)).toBe('Invalid CVV code');
    expect(sends).toBe(0);
  });
});

/** The message under a field, read as a person reads it. */
function errorUnder(field: HTMLElement) {
  const id = field
    .getAttribute('aria-describedby')
    ?.split(' ')
    .find((part) => part.includes('error'));
  return id ? document.getElementById(id)?.textContent : undefined;
}
