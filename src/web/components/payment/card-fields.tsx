import { PasswordInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { cardBrandWhileTyping, groupCardNumber } from '../../../domain/card-number-input';
import { CARD_BRANDS, EXPIRY_MONTHS, expiryYearsOffered } from '../../../domain/payments';
import { CardBrandMark } from './card-brand-mark';

export type CardFormValues = {
  Credit_Card_Number: string;
  Credit_Card_Type: string;
  CVV: string;
  Month_of_Expiry: string;
  Year_of_Expiry: string;
  Credit_Card_Holder_First_Name: string;
  Credit_Card_Holder_Last_Name: string;
  Credit_Card_Biling_Email_Address: string;
  Country: string;
  Credit_Card_Billing_Street: string;
  Credit_Card_Billing_City: string;
  Credit_Card_Billing_State: string;
  Credit_Card_Billing_Zip_Code: string;
};

export const emptyCard: CardFormValues = {
  Credit_Card_Number: '',
  Credit_Card_Type: '',
  CVV: '',
  Month_of_Expiry: '',
  Year_of_Expiry: '',
  Credit_Card_Holder_First_Name: '',
  Credit_Card_Holder_Last_Name: '',
  Credit_Card_Biling_Email_Address: '',
  Country: 'United States',
  Credit_Card_Billing_Street: '',
  Credit_Card_Billing_City: '',
  Credit_Card_Billing_State: '',
  Credit_Card_Billing_Zip_Code: '',
};

/** The part of a client's address of record a card form can start from. */
export interface AddressOfRecord {
  street: string;
  city: string;
  state: string;
  zip: string;
}

/**
 * An empty card whose billing address starts as the client's address of record, for pages that know the
 * signed-in client (never the public payment pages, which reveal no client data). The client can change it.
 */
export function cardPrefilledFrom(address: AddressOfRecord | undefined): CardFormValues {
  if (!address) return emptyCard;
  return {
    ...emptyCard,
    Credit_Card_Billing_Street: address.street,
    Credit_Card_Billing_City: address.city,
    Credit_Card_Billing_State: address.state,
    Credit_Card_Billing_Zip_Code: address.zip,
  };
}

/**
 * The card with a newly typed number: grouped as the brand prints it, and the Card Type set to the
 * brand the number shows (the person can still choose another; the form then says they differ).
 */
export function withCardNumber(values: CardFormValues, typed: string): CardFormValues {
  const number = groupCardNumber(typed);
  const brand = cardBrandWhileTyping(number);
  return { ...values, Credit_Card_Number: number, Credit_Card_Type: brand ?? values.Credit_Card_Type };
}

interface Props {
  values: CardFormValues;
  onChange(values: CardFormValues): void;
  errors: Record<string, string>;
  today: string;
  disabled?: boolean;
}

/** The card fields of spec 1 section 2. The number and CVV leave the browser only for the gateway. */
export function CardFields({ values, onChange, errors, today, disabled }: Props) {
  const set = (field: keyof CardFormValues) => (value: string) => onChange({ ...values, [field]: value });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput
        label="Credit Card Number"
        name="Credit_Card_Number"
        autoComplete="cc-number"
        inputMode="numeric"
        maxLength={19}
        value={values.Credit_Card_Number}
        onChange={(e) => onChange(withCardNumber(values, e.currentTarget.value))}
        rightSection={<CardBrandMark brand={cardBrandWhileTyping(values.Credit_Card_Number)} size={32} />}
        rightSectionWidth={44}
        rightSectionPointerEvents="none"
        error={errors.Credit_Card_Number}
        disabled={disabled}
        required
      />
      <Select
        label="Card Type"
        name="Credit_Card_Type"
        data={[...CARD_BRANDS]}
        // Set from the number as it is typed; choosing it again keeps it rather than clearing it.
        allowDeselect={false}
        value={values.Credit_Card_Type || null}
        onChange={(value) => set('Credit_Card_Type')(value ?? '')}
        error={errors.Credit_Card_Type}
        disabled={disabled}
        required
      />
      <PasswordInput
        label="CVV"
        name="CVV"
        autoComplete="cc-csc"
        inputMode="numeric"
        maxLength={4}
        value={values.CVV}
        onChange={(e) => set('CVV')(e.currentTarget.value.replace(/\D/g, ''))}
        error={errors.CVV}
        // PasswordInput does not mark its input itself; screen readers and focusFirstInvalid need it.
        aria-invalid={Boolean(errors.CVV)}
        disabled={disabled}
        required
      />
      <SimpleGrid cols={2}>
        <Select
          label="Expiry Month"
          name="Month_of_Expiry"
          data={[...EXPIRY_MONTHS]}
          value={values.Month_of_Expiry || null}
          onChange={(value) => set('Month_of_Expiry')(value ?? '')}
          error={errors.Month_of_Expiry}
          disabled={disabled}
          required
        />
        <Select
          label="Expiry Year"
          name="Year_of_Expiry"
          data={expiryYearsOffered(today).map(String)}
          value={values.Year_of_Expiry || null}
          onChange={(value) => set('Year_of_Expiry')(value ?? '')}
          error={errors.Year_of_Expiry}
          disabled={disabled}
          required
        />
      </SimpleGrid>
      <TextInput
        label="Billing First Name"
        name="Credit_Card_Holder_First_Name"
        autoComplete="cc-given-name"
        value={values.Credit_Card_Holder_First_Name}
        onChange={(e) => set('Credit_Card_Holder_First_Name')(e.currentTarget.value)}
        error={errors.Credit_Card_Holder_First_Name}
        disabled={disabled}
        required
      />
      <TextInput
        label="Billing Last Name"
        name="Credit_Card_Holder_Last_Name"
        autoComplete="cc-family-name"
        value={values.Credit_Card_Holder_Last_Name}
        onChange={(e) => set('Credit_Card_Holder_Last_Name')(e.currentTarget.value)}
        error={errors.Credit_Card_Holder_Last_Name}
        disabled={disabled}
        required
      />
      <TextInput
        label="Billing Email"
        name="Credit_Card_Biling_Email_Address"
        type="email"
        autoComplete="email"
        value={values.Credit_Card_Biling_Email_Address}
        onChange={(e) => set('Credit_Card_Biling_Email_Address')(e.currentTarget.value)}
        error={errors.Credit_Card_Biling_Email_Address}
        disabled={disabled}
        required
      />
      <TextInput
        label="Billing Street"
        name="Credit_Card_Billing_Street"
        autoComplete="billing street-address"
        maxLength={60}
        value={values.Credit_Card_Billing_Street}
        onChange={(e) => set('Credit_Card_Billing_Street')(e.currentTarget.value)}
        error={errors.Credit_Card_Billing_Street}
        disabled={disabled}
        required
      />
      <TextInput
        label="Billing City"
        name="Credit_Card_Billing_City"
        autoComplete="billing address-level2"
        maxLength={40}
        value={values.Credit_Card_Billing_City}
        onChange={(e) => set('Credit_Card_Billing_City')(e.currentTarget.value)}
        error={errors.Credit_Card_Billing_City}
        disabled={disabled}
        required
      />
      <TextInput
        label="Billing State"
        name="Credit_Card_Billing_State"
        autoComplete="billing address-level1"
        maxLength={40}
        value={values.Credit_Card_Billing_State}
        onChange={(e) => set('Credit_Card_Billing_State')(e.currentTarget.value)}
        error={errors.Credit_Card_Billing_State}
        disabled={disabled}
        required
      />
      <TextInput
        label="Country"
        name="Country"
        autoComplete="country-name"
        value={values.Country}
        onChange={(e) => set('Country')(e.currentTarget.value)}
        error={errors.Country}
        disabled={disabled}
        required
      />
      <TextInput
        label="Zip or Postal Code"
        name="Credit_Card_Billing_Zip_Code"
        autoComplete="postal-code"
        value={values.Credit_Card_Billing_Zip_Code}
        onChange={(e) => set('Credit_Card_Billing_Zip_Code')(e.currentTarget.value)}
        error={errors.Credit_Card_Billing_Zip_Code}
        disabled={disabled}
        required
      />
    </SimpleGrid>
  );
}

export type AchFormValues = { Name_On_Account: string; Account_Number: string; ABA_Routing_Number: string };
export const emptyAch: AchFormValues = { Name_On_Account: '', Account_Number: '', ABA_Routing_Number: '' };

/** The ACH fields: name on account, account number, ABA routing number. */
export function AchFields({
  values,
  onChange,
  errors,
  disabled,
}: {
  values: AchFormValues;
  onChange(values: AchFormValues): void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const set = (field: keyof AchFormValues) => (value: string) => onChange({ ...values, [field]: value });
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <TextInput
        label="Name on Account"
        name="Name_On_Account"
        value={values.Name_On_Account}
        onChange={(e) => set('Name_On_Account')(e.currentTarget.value)}
        error={errors.Name_On_Account}
        disabled={disabled}
        required
      />
      <TextInput
        label="Account Number"
        name="Account_Number"
        inputMode="numeric"
        maxLength={17}
        autoComplete="off"
        value={values.Account_Number}
        onChange={(e) => set('Account_Number')(e.currentTarget.value.replace(/\D/g, ''))}
        error={errors.Account_Number}
        disabled={disabled}
        required
      />
      <TextInput
        label="ABA Routing Number"
        name="ABA_Routing_Number"
        inputMode="numeric"
        maxLength={9}
        autoComplete="off"
        value={values.ABA_Routing_Number}
        onChange={(e) => set('ABA_Routing_Number')(e.currentTarget.value.replace(/\D/g, ''))}
        error={errors.ABA_Routing_Number}
        disabled={disabled}
        required
      />
    </SimpleGrid>
  );
}
