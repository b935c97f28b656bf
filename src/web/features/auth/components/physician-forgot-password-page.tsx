import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { physicianOtpRequestSchema, physicianPasswordResetFormSchema } from '../../../../domain/auth';
import { fieldMessages } from '../../../../domain/errors';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { useRequestPhysicianCode, useUpdatePhysicianPassword } from '../api/physician-password';
import { emptyNewPassword, NewPasswordFields, type Outcome, OutcomeAlert } from './new-password-fields';

const emptyIdentity = { physicianId: '', email: '' };

/** A physician's password recovery: Physician ID and e-mail, then the code and a new password. */
export function PhysicianForgotPasswordPage() {
  const [identity, setIdentity] = useState(emptyIdentity);
  const [reset, setReset] = useState(emptyNewPassword);
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const requestCode = useRequestPhysicianCode();
  const updatePassword = useUpdatePhysicianPassword();

  const onRequestCode = (event: FormEvent) => {
    event.preventDefault();
    if (requestCode.isPending) return;
    const parsed = physicianOtpRequestSchema.safeParse(identity);
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      focusFirstInvalid(event.currentTarget as HTMLElement);
      return;
    }
    setErrors({});
    setOutcome(null);
    requestCode.mutate(parsed.data, {
      onSuccess: (data) => {
        setCodeSent(true);
        setOutcome({ kind: 'message', text: data.message });
      },
      onError: (error) => {
        setOutcome({ kind: 'error', text: error.message });
        if (error instanceof ApiError) setErrors(error.fields);
      },
    });
  };

  const onReset = (event: FormEvent) => {
    event.preventDefault();
    if (updatePassword.isPending) return;
    const parsed = physicianPasswordResetFormSchema().safeParse({ ...identity, ...reset });
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      focusFirstInvalid(event.currentTarget as HTMLElement);
      return;
    }
    setErrors({});
    const { ConfirmPassword: _confirm, ...request } = parsed.data;
    updatePassword.mutate(request, {
      onSuccess: (data) => {
        setIdentity(emptyIdentity);
        setReset(emptyNewPassword);
        setCodeSent(false);
        setOutcome({ kind: 'message', text: data.message });
      },
      onError: (error) => {
        setReset(emptyNewPassword);
        if (error instanceof ApiError && error.code === 'VALIDATION') {
          setErrors(error.fields);
          setOutcome(null);
        } else {
          setOutcome({ kind: 'error', text: error.message });
        }
      },
    });
  };

  return (
    <PublicShell title="Physician Forgot Password">
      <form onSubmit={codeSent ? onReset : onRequestCode} noValidate>
        <Stack>
          <Text size="sm">
            Enter your Physician ID and the email we have on file. We will email you a one time password to
            set a new password.
          </Text>
          <OutcomeAlert outcome={outcome} />
          <TextInput
            label="Physician ID"
            name="physicianId"
            autoComplete="username"
            value={identity.physicianId}
            onChange={(e) => setIdentity({ ...identity, physicianId: e.currentTarget.value })}
            error={errors.physicianId}
            readOnly={codeSent}
            required
          />
          <TextInput
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={identity.email}
            onChange={(e) => setIdentity({ ...identity, email: e.currentTarget.value })}
            error={errors.email}
            readOnly={codeSent}
            required
          />
          {!codeSent && (
            <Button type="submit" loading={requestCode.isPending}>
              Send One Time Password
            </Button>
          )}
          {codeSent && (
            <>
              <NewPasswordFields values={reset} onChange={setReset} errors={errors} />
              <Button type="submit" loading={updatePassword.isPending}>
                Submit
              </Button>
            </>
          )}
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/physician">
              Physician Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicShell>
  );
}
