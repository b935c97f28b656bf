import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { contactChannelMessages } from '../../../../domain/client-basics';
import type { PhysicianConsentClient } from '../../../../domain/consent-form';

interface Props {
  values: PhysicianConsentClient;
  onChange(values: PhysicianConsentClient): void;
  errors: Record<string, string>;
  disabled: boolean;
}

/**
 * Client Information of the physician's consent (spec 2): the client's personal details and the
 * Enrollment Date, prefilled from the client's record and saved to it with the signing. The e-mail
 * address and phone number are shown, not edited: they are how the client signs in and recovers
 * the account, which only the client or the bank changes (DESIGN.md section 3).
 */
// Mantine's description is dimmed, and lighter still beside a disabled field: too light on white
// to read (WCAG AA), so the note is dark grey.
const readOnlyNote = (
  <Text span fz="xs" c="gray.7">
    {contactChannelMessages.physicianReadOnlyNote}
  </Text>
);

export function PhysicianClientFields({ values, onChange, errors, disabled }: Props) {
  const field = (name: keyof PhysicianConsentClient) => ({
    name,
    value: values[name],
    onChange: (e: { currentTarget: { value: string } }) =>
      onChange({ ...values, [name]: e.currentTarget.value }),
    error: errors[name],
    required: true,
    disabled,
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="First Name" autoComplete="off" maxLength={80} {...field('FirstName')} />
      <TextInput label="Last Name" autoComplete="off" maxLength={80} {...field('LastName')} />
      <TextInput
        label="Date of Birth"
        placeholder="MM/DD/YYYY"
        inputMode="numeric"
        maxLength={10}
        autoComplete="off"
        {...field('Dob')}
      />
      <TextInput
        label="Email"
        type="email"
        autoComplete="off"
        {...field('Email')}
        readOnly
        variant="filled"
        description={readOnlyNote}
      />
      <TextInput
        label="Phone Number"
        inputMode="tel"
        autoComplete="off"
        {...field('PhoneNumber')}
        readOnly
        variant="filled"
        description={readOnlyNote}
      />
      <TextInput label="Address" autoComplete="off" maxLength={200} {...field('Address')} />
      <TextInput label="City" autoComplete="off" maxLength={80} {...field('City')} />
      <TextInput label="State" autoComplete="off" maxLength={80} {...field('State')} />
      <TextInput label="Zip Code" autoComplete="off" maxLength={20} {...field('zipcode')} />
      <TextInput label="Country" autoComplete="off" maxLength={80} {...field('Country')} />
      <TextInput
        label="Enrollment Date"
        placeholder="MM/DD/YYYY"
        inputMode="numeric"
        maxLength={10}
        autoComplete="off"
        {...field('Enrollment_Date')}
      />
    </SimpleGrid>
  );
}
