import { Button, Fieldset, Group, Loader, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import {
  type AmountDue,
  type ClientVerificationRequest,
  clientVerificationSchema,
  verificationMessages as v,
} from '../../../../domain/client-verification';
import { isoToUsDate } from '../../../../domain/dates';
import { fieldMessages } from '../../../../domain/errors';
import { BankContactLine } from '../../../components/bank-contact-line';
import { DateOfBirthInput } from '../../../components/date-of-birth-input';
import { ApiError } from '../../../lib/api-client';
import { useVerifyClient } from '../api/public-payment';

export type IdentificationMode = 'id' | 'contact' | '';
const emptyIdentity = {
  ClientId: '',
  ClientLastname: '',
  ClientFirstName: '',
  Clientlastname: '',
  ClientEmail: '',
  ClientDob: '',
};

export interface Confirmation {
  request: ClientVerificationRequest;
  verification: string;
  amountDue: AmountDue;
}

interface Props {
  today: string;
  /** The signed link the page was opened with is being checked. */
  checkingLink: boolean;
  /** Confirmed by the signed link, for this Client ID: nothing to fill in. Null otherwise. */
  byLink: string | null;
  /** Why a signed link did not identify the client. */
  linkError: string | null;
  mode: IdentificationMode;
  onModeChange(mode: IdentificationMode): void;
  confirmed: boolean;
  onConfirmed(confirmation: Confirmation): void;
  /** The form's messages: these fields' and the Save's ("choose how", "confirm first"). */
  errors: Record<string, string>;
  setErrors(errors: Record<string, string>): void;
}

/** Client Identification: by Client ID and last name, or by full contact, confirmed by the server. */
export function ClientIdentificationFieldset({
  today,
  checkingLink,
  byLink,
  linkError,
  mode,
  onModeChange,
  confirmed,
  onConfirmed,
  errors,
  setErrors,
}: Props) {
  const verifyClient = useVerifyClient();
  const [identity, setIdentity] = useState(emptyIdentity);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  /** The visitor confirmed by the form: a signed link's failure is no longer the news. */
  const [triedForm, setTriedForm] = useState(false);
  const problem = verifyError ?? (triedForm ? null : linkError);
  const field = (name: keyof typeof emptyIdentity) => ({
    value: identity[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setIdentity((i) => ({ ...i, [name]: value }));
    },
    error: errors[name],
    readOnly: confirmed,
    required: true,
  });

  const onConfirm = () => {
    setVerifyError(null);
    setTriedForm(true);
    if (!mode) {
      setErrors({ mode: v.chooseOption });
      return;
    }
    const candidate =
      mode === 'id'
        ? { mode, ClientId: identity.ClientId, ClientLastname: identity.ClientLastname }
        : {
            mode,
            ClientFirstName: identity.ClientFirstName,
            Clientlastname: identity.Clientlastname,
            ClientEmail: identity.ClientEmail,
            ClientDob: identity.ClientDob ? isoToUsDate(identity.ClientDob) : '',
          };
    const parsed = clientVerificationSchema(today).safeParse(candidate);
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      return;
    }
    setErrors({});
    const request = parsed.data;
    verifyClient.mutate(request, {
      onSuccess: (data) =>
        onConfirmed({ request, verification: data.verification, amountDue: data.amountDue }),
      onError: (error) => {
        setIdentity(emptyIdentity);
        setVerifyError(error.message);
        if (error instanceof ApiError && error.fields.verify) setErrors({ verify: error.fields.verify });
      },
    });
  };

  return (
    <Fieldset legend="Client Identification" radius="md">
      {checkingLink ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm">Checking the link…</Text>
        </Group>
      ) : byLink !== null ? (
        <Stack gap={4} role="status">
          <Text c="teal.9" fw={600}>
            {v.confirmed}
          </Text>
          {byLink && <Text size="sm">Client ID: {byLink}</Text>}
        </Stack>
      ) : (
        <Stack>
          {problem && problem === linkError && (
            // A link that failed, above the form it asks for: what happened, and how to get a new one.
            <div role="alert">
              <Text c="red.9" size="sm" fw={600}>
                {problem}
              </Text>
              <BankContactLine lead={v.newLinkHelp} />
            </div>
          )}
          <Radio.Group
            label="Identify the client by"
            value={mode}
            onChange={(value) => {
              onModeChange(value as IdentificationMode);
              setErrors({});
            }}
            error={errors.mode}
            readOnly={confirmed}
          >
            <Group mt="xs">
              <Radio value="id" label="Client ID and Last Name" disabled={confirmed} />
              <Radio value="contact" label="Client Full Contact Information" disabled={confirmed} />
            </Group>
          </Radio.Group>
          {mode === 'id' && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Client ID" {...field('ClientId')} />
              <TextInput label="Last Name" {...field('ClientLastname')} />
            </SimpleGrid>
          )}
          {mode === 'contact' && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="First Name" {...field('ClientFirstName')} />
              <TextInput label="Last Name" {...field('Clientlastname')} />
              <TextInput label="Email" type="email" {...field('ClientEmail')} />
              <DateOfBirthInput
                label="Date of Birth"
                value={identity.ClientDob}
                onChange={(value) => setIdentity((i) => ({ ...i, ClientDob: value }))}
                maxDate={today}
                error={errors.ClientDob}
                readOnly={confirmed}
                required
              />
            </SimpleGrid>
          )}
          {confirmed ? (
            <Text c="teal.9" fw={600} role="status">
              {v.confirmed}
            </Text>
          ) : (
            <div>
              <Button variant="outline" onClick={onConfirm} loading={verifyClient.isPending}>
                Confirm Client Details
              </Button>
              {errors.verify && (
                <Text c="red.9" size="sm" mt="xs">
                  {errors.verify}
                </Text>
              )}
              {problem && problem !== linkError && (
                <Text c="red.9" size="sm" mt="xs" role="alert">
                  {problem}
                </Text>
              )}
            </div>
          )}
        </Stack>
      )}
    </Fieldset>
  );
}
