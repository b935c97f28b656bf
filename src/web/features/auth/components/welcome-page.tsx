import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { authMessages, newPasswordSchema } from '../../../../domain/auth';
import { fieldMessages } from '../../../../domain/errors';
import { welcomeLinkMessages } from '../../../../domain/initial-processing';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { homeOf } from '../../../lib/session';
import { useSetWelcomePassword, useWelcomeLink } from '../api/welcome-link';

/** The new password twice; the common-password list is the server's (its answer names the field). */
const welcomePasswordSchema = z
  .object({
    password: newPasswordSchema(),
    ConfirmPassword: z
      .string({ error: authMessages.confirmPasswordRequired })
      .min(1, authMessages.confirmPasswordRequired),
  })
  .refine((form) => form.password === form.ConfirmPassword, {
    message: authMessages.passwordMismatch,
    path: ['ConfirmPassword'],
  });

/**
 * A new client's welcome link (from the e-mail sent when their physician registered them): their
 * Client ID, and their first password, after which they are signed in. A used or expired link
 * says so and leads to password recovery.
 */
export function WelcomePage() {
  const { token = '' } = useParams();
  const link = useWelcomeLink(token);
  const setPassword = useSetWelcomePassword();
  const navigate = useNavigate();
  const [password, setPasswordValue] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  if (link.isPending) {
    return (
      <PublicShell title="Welcome">
        <Text role="status">Checking your link…</Text>
      </PublicShell>
    );
  }
  if (link.isError) {
    const unusable = link.error instanceof ApiError && link.error.status === 404;
    return (
      <PublicShell title="Welcome">
        <Stack>
          <Alert color="red" role="alert">
            {unusable ? welcomeLinkMessages.unusable : link.error.message}
          </Alert>
          <Anchor component={Link} to="/forgot-password">
            Forgot Your Password?
          </Anchor>
          <Anchor component={Link} to="/">
            Sign in
          </Anchor>
        </Stack>
      </PublicShell>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (setPassword.isPending) return;
    const parsed = welcomePasswordSchema.safeParse({ password, ConfirmPassword: confirm });
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setPassword.mutate(
      { token, password },
      {
        onSuccess: () => navigate(homeOf.client, { replace: true }),
        onError: (error) => {
          if (error instanceof ApiError) setErrors(error.fields);
          focusFirstInvalid(form);
        },
      },
    );
  };

  const failure =
    setPassword.error instanceof ApiError && Object.keys(setPassword.error.fields).length === 0
      ? setPassword.error.message
      : setPassword.error && !(setPassword.error instanceof ApiError)
        ? 'Something went wrong. Please try again.'
        : null;

  return (
    <PublicShell title="Welcome">
      <form onSubmit={onSubmit} noValidate aria-label="Set your password">
        <Stack>
          <Text>
            Welcome, {link.data.firstName}. Your physician registered you with the bank. Please set the
            password you will sign in with.
          </Text>
          <TextInput label="Client ID" value={link.data.clientACTId} readOnly autoComplete="username" />
          <Text size="sm">At least 12 characters. A long phrase is easy to remember and hard to guess.</Text>
          <PasswordInput
            label="New Password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPasswordValue(e.currentTarget.value)}
            error={errors.password}
            aria-invalid={Boolean(errors.password) || undefined}
            required
          />
          <PasswordInput
            label="Confirm Password"
            name="ConfirmPassword"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            error={errors.ConfirmPassword}
            aria-invalid={Boolean(errors.ConfirmPassword) || undefined}
            required
          />
          {failure && (
            <Alert color="red" role="alert">
              {failure}
              {setPassword.error instanceof ApiError && setPassword.error.status === 404 && (
                <>
                  {' '}
                  <Anchor component={Link} to="/forgot-password">
                    Forgot Your Password?
                  </Anchor>
                </>
              )}
            </Alert>
          )}
          <Button type="submit" loading={setPassword.isPending} fullWidth>
            Set password and sign in
          </Button>
        </Stack>
      </form>
    </PublicShell>
  );
}
