import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHIPPED_PRICE_AMOUNTS } from '../../../../domain/price-book';
import { renderInPortal } from '../../../testing/render';
import { Instructions } from './instructions';

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input).split('?')[0];
      if (path === '/api/pay/price_book') {
        return new Response(
          JSON.stringify({ version: 0, effectiveOn: null, amounts: SHIPPED_PRICE_AMOUNTS }),
          {
            status: 200,
            headers: { 'content-type': 'application/json' },
          },
        );
      }
      throw new Error(`unexpected call ${path}`);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the new sample page 1 (spec 2 section 9)', () => {
  it('reminds the physician of the screening window, the 3 days notice and that the script is due 14 days after receipt', async () => {
    renderInPortal(<Instructions onNext={() => {}} />);
    const reminders = await screen.findByRole('heading', { name: 'Reminders' });
    expect(reminders).toBeDefined();
    expect(
      screen.getByText(
        "The client's infectious disease screening must be done within 14 days before or after the day the sample is collected.",
      ),
    ).toBeDefined();
    expect(screen.getByText('The script is due no later than 14 days after sample receipt.')).toBeDefined();
    expect(
      screen.getByText(
        'Let us know at least 3 days before you ship, so that the laboratory is ready to receive the sample.',
      ),
    ).toBeDefined();
  });
});
