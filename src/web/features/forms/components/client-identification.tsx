import { Button, Group, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { isoToUsDate } from '../../../../domain/dates';
import { fieldMessages } from '../../../../domain/errors';
import {
  CLIENT_INFO_CHOICES,
  type ClientIdentification,
  type ClientInfoChoice,
  physicianDiseaseMessages,
  type VerifyPhysicianClientResponse,
  verifyPhysicianClientRequestSchema,
} from '../../../../domain/infectious-disease';
import { DateOfBirthInput } from '../../../components/date-of-birth-input';
import { scrollBelowHeader } from '../../../components/focus-first-invalid';
import { ApiError } from '../../../lib/api-client';
import { submissionFailureMessage } from '../../../lib/payment/failure-message';
import { useVerifyPhysicianClient } from '../api/verify-physician-client';

/** The client fields as the physician types them; the date of birth as YYYY-MM-DD from the picker. */
export interface ClientIdentificationValues {
  ClientInfo: ClientInfoChoice | '';
  ClientId: string;
  ClientLastname: string;
  ClientFirstName: string;
  Clientlastname: string;
  ClientEmail: string;
  ClientDob: string;
}

export const emptyIdentification: ClientIdentificationValues = {
  ClientInfo: '',
  ClientId: '',
  ClientLastname: '',
  ClientFirstName: '',
  Clientlastname: '',
  ClientEmail: '',
  ClientDob: '',
};

/** What the server receives: the chosen identification's fields only, the date as MM/DD/YYYY. */
export function identificationRequest(values: ClientIdentificationValues): Partial<ClientIdentification> {
  if (values.ClientInfo === 'client_id') {
    return { ClientInfo: 'client_id', ClientId: values.ClientId, ClientLastname: values.ClientLastname };
  }
  if (values.ClientInfo === 'full_contact') {
    return {
      ClientInfo: 'full_contact',
      ClientFirstName: values.ClientFirstName,
      Clientlastname: values.Clientlastname,
      ClientEmail: values.ClientEmail,
      ClientDob: values.ClientDob ? isoToUsDate(values.ClientDob) : '',
    };
  }
  return {};
}

interface Props {
  value: ClientIdentificationValues;
  onChange(value: ClientIdentificationValues): void;
  confirmed: VerifyPhysicianClientResponse | null;
  onConfirmed(confirmed: VerifyPhysicianClientResponse | null): void;
  /** The form's messages for these fields, from its last submit. */
  errors: Record<string, string>;
  today: string;
  disabled: boolean;
}

/**
 * Client Information of the physician's form (spec 2, sections 2, 4 and 5): the client by Client
 * ID and last name, or by full contact, confirmed with Confirm Client Details. A failed
 * confirmation clears what was typed; changing a field asks for a new confirmation.
 */
export function ClientIdentificationSection({
  value,
  onChange,
  confirmed,
  onConfirmed,
  errors,
  today,
  disabled,
}: Props) {
  const verify = useVerifyPhysicianClient();
  const [ownErrors, setOwnErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const shown = { ...errors, ...ownErrors };
  const busy = disabled || verify.isPending;

  const set = (patch: Partial<ClientIdentificationValues>) => {
    onChange({ ...value, ...patch });
    onConfirmed(null);
    setFailure(null);
    setOwnErrors({});
  };

  const confirm = async () => {
    const request = identificationRequest(value);
    const checked = verifyPhysicianClientRequestSchema(today).safeParse(request);
    if (!checked.success) {
      setOwnErrors(fieldMessages(checked.error));
      return;
    }
    setOwnErrors({});
    setFailure(null);
    try {
      onConfirmed(await verify.mutateAsync(checked.data));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setOwnErrors(error.fields);
        return;
      }
      if (!(error instanceof ApiError) || error.status !== 404) {
        setFailure(submissionFailureMessage(error));
        return;
      }
      setFailure(physicianDiseaseMessages.verifyFailed);
      // The spec clears the entered client fields; the choice of identification stays.
      onChange({ ...emptyIdentification, ClientInfo: value.ClientInfo });
      onConfirmed(null);
    }
  };

  const input = (
    field: Exclude<keyof ClientIdentificationValues, 'ClientInfo' | 'ClientDob'>,
    label: string,
  ) => (
    <TextInput
      label={label}
      name={field}
      value={value[field]}
      onChange={(e) => set({ [field]: e.currentTarget.value })}
      error={shown[field]}
      disabled={busy}
      autoComplete="off"
      required
    />
  );
  const problem = confirmed ? null : (failure ?? shown.verify);
  const problemRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (problem && problemRef.current) scrollBelowHeader(problemRef.current);
  }, [problem]);

  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Client Information
      </Title>
      <Radio.Group
        label="Identify the client by"
        name="ClientInfo"
        value={value.ClientInfo}
        onChange={(choice) => set({ ClientInfo: choice as ClientInfoChoice })}
        error={shown.ClientInfo}
        withAsterisk
      >
        <Group mt="xs">
          {(Object.keys(CLIENT_INFO_CHOICES) as ClientInfoChoice[]).map((choice) => (
            <Radio
              key={choice}
              value={choice}
              label={CLIENT_INFO_CHOICES[choice]}
              disabled={busy}
              aria-invalid={Boolean(shown.ClientInfo) || undefined}
            />
          ))}
        </Group>
      </Radio.Group>
      {value.ClientInfo === 'client_id' && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {input('ClientId', 'Client ID')}
          {input('ClientLastname', 'Client Last Name')}
        </SimpleGrid>
      )}
      {value.ClientInfo === 'full_contact' && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {input('ClientFirstName', 'Client First Name')}
          {input('Clientlastname', 'Client Last Name')}
          {input('ClientEmail', 'Client Email')}
          <DateOfBirthInput
            label="Client Date of Birth"
            name="ClientDob"
            value={value.ClientDob}
            onChange={(ClientDob) => set({ ClientDob })}
            maxDate={today}
            error={shown.ClientDob}
            disabled={busy}
            required
          />
        </SimpleGrid>
      )}
      <Group gap="sm" align="center">
        <Button variant="light" onClick={confirm} loading={verify.isPending} disabled={disabled}>
          Confirm Client Details
        </Button>
        {confirmed && (
          <Group gap={6} wrap="nowrap" role="status">
            <IconCircleCheck size={18} color="var(--mantine-color-green-9)" aria-hidden />
            <Text size="sm" fw={600}>
              {physicianDiseaseMessages.confirmed}: {confirmed.ClientName} ({confirmed.ClientId})
            </Text>
          </Group>
        )}
      </Group>
      {problem && (
        <Text ref={problemRef} c="red.9" fw={600} size="sm" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
