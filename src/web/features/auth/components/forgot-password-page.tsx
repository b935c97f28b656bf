import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { otpRequestSchema, passwordResetFormSchema } from '../../../../domain/auth';
import { todayFor } from '../../../../domain/client';
import { fieldMessages } from '../../../../domain/errors';
import { DateOfBirthInput } from '../../../components/date-of-birth-input';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { useRequestOneTimePassword } from '../api/get-otp';
import { useUpdatePassword } from '../api/update-password';
import { emptyNewPassword, NewPasswordFields, type Outcome, OutcomeAlert } from './new-password-fields';

const emptyIdentity = { email: '', firstName: '', dateOfBirth: '' };

export function ForgotPasswordPage() {
  const today = todayFor(new Date());
  const [identity, setIdentity] = useState(emptyIdentity);
  const [reset, setReset] = useState(emptyNewPassword);
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const requestCode = useRequestOneTimePassword();
  const updatePassword = useUpdatePassword();

  const onRequestCode = (event: FormEvent) => {
    event.preventDefault();
    if (requestCode.isPending) return;
    const parsed = otpRequestSchema(today).safeParse(identity);
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
        setIdentity(emptyIdentity);
        setOutcome({ kind: 'error', text: error.message });
        if (error instanceof ApiError) setErrors(error.fields);
      },
    });
  };

  const onReset = (event: FormEvent) => {
    event.preventDefault();
    if (updatePassword.isPending) return;
    const parsed = passwordResetFormSchema(today).safeParse({ ...identity, ...reset });
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
    <PublicShell title="Forgot Password">
      <form onSubmit={codeSent ? onReset : onRequestCode} noValidate>
        <Stack>
          <Text size="sm">
            Enter the email, first name and date of birth we have on file. We will email you a one time
            password to set a new password.
          </Text>
          <OutcomeAlert outcome={outcome} />
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
          <TextInput
            label="First Name"
            name="firstName"
            autoComplete="given-name"
            value={identity.firstName}
            onChange={(e) => setIdentity({ ...identity, firstName: e.currentTarget.value })}
            error={errors.firstName}
            readOnly={codeSent}
            required
          />
          <DateOfBirthInput
            label="Date of Birth"
            name="dateOfBirth"
            value={identity.dateOfBirth}
            onChange={(dateOfBirth) => setIdentity({ ...identity, dateOfBirth })}
            maxDate={today}
            error={errors.dateOfBirth}
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
            <Anchor component={Link} to="/">
              Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicShell>
  );
}
