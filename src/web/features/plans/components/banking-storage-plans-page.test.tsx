import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { BankingStoragePlansPage } from './banking-storage-plans-page';

const jane = {
  clientACTId: 'ACT10001',
  clientRecordId: 'client-1',
  firstName: 'Jane',
  lastName: 'Doe',
  street: '1200 Brickell Avenue',
  city: 'Miami',
  state: 'FL',
  zip: '33131',
};

beforeEach(() => {
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/session') return json({ signedIn: true, role: 'client', id: 'client-1' });
      if (path === '/api/pay/get_Client') return json({ result: { listResponse: [jane] } });
      if (path === '/api/pay/get_PaymentInfo') {
        return json({ result: { Credit_Card_Number: '************1111', Credit_Card_Type: 'Visa' } });
      }
      if (path === '/api/pay/payment_config') return json({ gateway: 'sandbox', tokenizeUrl: '/tokenize' });
      if (path === '/api/pay/price_book')
        return json({ version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS });
      throw new Error(`unexpected call ${path}`);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function Step() {
  return <output data-testid="search">{useLocation().search}</output>;
}

async function renderPlans() {
  renderInPortal(
    <MemoryRouter>
      <BankingStoragePlansPage />
      <Step />
    </MemoryRouter>,
  );
  await screen.findByRole('form', { name: 'Banking and Storage Plans' });
}

const total = () => screen.queryByTestId('order-total')?.textContent;

describe('Banking and Storage Plans', () => {
  it("starts with nothing chosen and the spec's default as a suggestion; Next asks for a plan", async () => {
    const user = userEvent.setup();
    await renderPlans();
    expect(total()).toBeUndefined();
    expect(
      screen.getByText(
        'Suggested: Bio-Insurance 100 (100,000,000 cells, 10 Vials), no annual storage plan: $4,250.00.',
      ),
    ).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert').textContent).toBe('Please Select Any Annual Storage Plan');
    await user.click(screen.getByRole('button', { name: 'Choose the suggestion' }));
    // $4,250.00 by card + 3%.
    expect(total()).toBe('$4,377.50');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers Bio-Insurance by tier, never a count dearer than the next tier, with a stepper inside the tier', async () => {
    const user = userEvent.setup();
    await renderPlans();
    await user.click(screen.getByRole('combobox', { name: 'Plan' }));
    await user.click(await screen.findByRole('option', { name: 'Bio-Insurance Plan', hidden: true }));
    expect(
      screen.getByRole('radio', { name: 'Bio-Insurance 100: 10 to 23 vials, $425.00 a vial (15% discount)' }),
    ).toBeDefined();
    expect(
      screen.getByText(
        '24 vials would cost $10,200.00, more than 25 vials at $10,000.00: choose 25 vials instead.',
      ),
    ).toBeDefined();
    expect(
      screen.getByRole('radio', { name: 'Bio-Insurance 250: 25 to 46 vials, $400.00 a vial (20% discount)' }),
    ).toBeDefined();

    await user.click(screen.getByRole('radio', { name: /^Bio-Insurance 250/ }));
    const vials = screen.getByRole('textbox', { name: 'Number of vials' }) as HTMLInputElement;
    expect(vials.value).toBe('25');
    expect(screen.getByRole('button', { name: 'One vial less' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'One vial more' }));
    expect(vials.value).toBe('26');
    // 26 x $400.00 = $10,400.00, + 3% = $10,712.00.
    expect(total()).toBe('$10,712.00');
    // Back down to 25: the price of 25 vials, whichever way the count got there.
    await user.click(screen.getByRole('button', { name: 'One vial less' }));
    expect(vials.value).toBe('25');
    // 25 x $400.00 = $10,000.00, + 3% = $10,300.00.
    expect(total()).toBe('$10,300.00');
    await user.click(screen.getByRole('button', { name: 'One vial more' }));
    await user.click(screen.getByRole('button', { name: 'One vial more' }));
    await user.click(screen.getByRole('button', { name: 'One vial less' }));
    expect(vials.value).toBe('26');
    expect(total()).toBe('$10,712.00');
  });

  it('says a Longevity vial holds 1 million cells, in the choice and in the summary (DESIGN.md 8.22)', async () => {
    const user = userEvent.setup();
    await renderPlans();
    await user.click(screen.getByRole('combobox', { name: 'Plan' }));
    await user.click(await screen.findByRole('option', { name: 'Longevity Plan', hidden: true }));
    const longevity = screen.getByRole('combobox', { name: 'Longevity Banking Plan' });
    expect(screen.getByText('A Longevity vial holds 1 million cells')).toBeDefined();
    await user.click(longevity);
    expect(
      screen.getByRole('option', {
        name: 'Longevity 100 (10,000,000 cells, 10 vials of 1 million cells): $2,125.00',
        hidden: true,
      }),
    ).toBeDefined();
    expect(
      screen.getByRole('option', {
        name: 'Longevity 500 (50,000,000 cells, 50 vials of 1 million cells): $9,375.00',
        hidden: true,
      }),
    ).toBeDefined();
    await user.click(
      screen.getByRole('option', {
        name: 'Longevity 250 (25,000,000 cells, 25 vials of 1 million cells): $5,000.00',
        hidden: true,
      }),
    );
    expect(
      screen.getByText('Longevity 250 (25,000,000 cells, 25 vials of 1 million cells), $5,000.00'),
    ).toBeDefined();
  });

  it('puts the payment step in the address and names the amount on the button; a check is ordered, not paid', async () => {
    const user = userEvent.setup();
    await renderPlans();
    await user.click(screen.getByRole('button', { name: 'Choose the suggestion' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('search').textContent).toBe('?step=payment');
    expect((screen.getByRole('textbox', { name: 'Client ID' }) as HTMLInputElement).value).toBe('ACT10001');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay $4,377.50' })).toBeDefined());

    await user.click(screen.getByRole('radio', { name: 'Check' }));
    expect(total()).toBe('$4,250.00');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Previous Page' }));
    expect(screen.getByTestId('search').textContent).toBe('');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDefined();
  });
  it("with no bank account on file, choosing ACH gives the spec's note, linking to Payment Information", async () => {
    const user = userEvent.setup();
    await renderPlans();
    await user.click(screen.getByRole('button', { name: 'Choose the suggestion' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('radio', { name: 'ACH Payment' }));
    expect(screen.getByTestId('no-ach-stored').textContent).toBe(
      'Please store your ACH Details in the update payment information tab to use ACH Payment Method.',
    );
    expect(screen.getByRole('link', { name: 'update payment information tab' }).getAttribute('href')).toBe(
      '/payment-information',
    );
  });
});
