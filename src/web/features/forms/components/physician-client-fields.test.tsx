import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PhysicianConsentClient } from '../../../../domain/consent-form';
import { renderInPortal } from '../../../testing/render';
import { PhysicianClientFields } from './physician-client-fields';

const ana: PhysicianConsentClient = {
  FirstName: 'Ana',
  LastName: 'Lima',
  Dob: '07/09/1982',
  Email: 'ana.lima@example.com',
  PhoneNumber: '3055550177',
  Address: '2300 Ponce de Leon Boulevard',
  City: 'Coral Gables',
  State: 'FL',
  zipcode: '33134',
  Country: 'United States',
  Enrollment_Date: '05/02/2025',
};

describe("the client's details on the physician consent", () => {
  it('shows the e-mail and phone read-only, saying why, and leaves the rest editable', async () => {
    const changes: PhysicianConsentClient[] = [];
    renderInPortal(
      <PhysicianClientFields values={ana} onChange={(v) => changes.push(v)} errors={{}} disabled={false} />,
    );
    for (const name of ['Email', 'Phone Number']) {
      // Found by its label and by its description: the reason is read out with the field.
      const field = screen.getByRole('textbox', {
        name,
        description:
          'Only the client or the bank can change this: it signs the client in and recovers their account.',
      }) as HTMLInputElement;
      expect(field.readOnly, name).toBe(true);
      await userEvent.type(field, 'x');
    }
    expect(changes).toEqual([]);

    await userEvent.type(screen.getByRole('textbox', { name: 'City' }), 'x');
    expect(changes.at(-1)?.City).toBe('Coral Gablesx');
  });
});
