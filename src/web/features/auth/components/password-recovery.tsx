import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { authPolicy } from '../../../../domain/auth';
import { fieldMessages } from '../../../../domain/errors';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { emptyNewPassword, NewPasswordFields, type Outcome, OutcomeAlert } from './new-password-fields';

type Answer = { message: string };

/** A recovery call as the page uses it: what the request is does not matter here, the schema made it. */
interface RecoveryCall {
  isPending: boolean;
  mutate: (
    request: never,
    callbacks: { onSuccess: (answer: Answer) => void; onError: (error: Error) => void },
  ) => void;
}

/** What differs between the client's and the physician's recovery: who they are, and the calls. */
export interface RecoveryProps<I extends Record<string, string>> {
  title: string;
  intro: string;
  emptyIdentity: I;
  identitySchema: z.ZodType;
  resetSchema: z.ZodType;
  requestCode: RecoveryCall;
  updatePassword: RecoveryCall;
  /** The identity fields, read-only once the code is sent. */
  renderIdentity: (props: {
    identity: I;
    setIdentity: (identity: I) => void;
    errors: Record<string, string>;
    readOnly: boolean;
  }) => ReactNode;
  /** Whether a refused identity empties its fields (the client's page does, as the spec says). */
  clearIdentityOnFailure: boolean;
  login: { to: string; label: string };
}

/**
 * Password recovery in two steps: who you are (a code is e-mailed), then the code and the new
 * password. It never leaves the visitor stuck: the code can be sent again, the whole thing started
 * over, and a wrong code says how many tries that code has left.
 */
export function PasswordRecovery<I extends Record<string, string>>(props: RecoveryProps<I>) {
  const { requestCode, updatePassword } = props;
  const [identity, setIdentity] = useState<I>(props.emptyIdentity);
  const [reset, setReset] = useState(emptyNewPassword);
  const [codeSent, setCodeSent] = useState(false);
  const [triesLeft, setTriesLeft] = useState<number>(authPolicy.otpMaxTries);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);

  const sendCode = (form: HTMLElement | null) => {
    if (requestCode.isPending) return;
    const parsed = props.identitySchema.safeParse(identity);
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      if (form) focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setOutcome(null);
    requestCode.mutate(parsed.data as never, {
      onSuccess: (data) => {
        setCodeSent(true);
        setTriesLeft(authPolicy.otpMaxTries);
        setReset(emptyNewPassword);
        setOutcome({ kind: 'message', text: data.message });
      },
      onError: (error) => {
        if (props.clearIdentityOnFailure) setIdentity(props.emptyIdentity);
        setOutcome({ kind: 'error', text: error.message });
        if (error instanceof ApiError) setErrors(error.fields);
      },
    });
  };

  const startOver = () => {
    setIdentity(props.emptyIdentity);
    setReset(emptyNewPassword);
    setCodeSent(false);
    setTriesLeft(authPolicy.otpMaxTries);
    setErrors({});
    setOutcome(null);
  };

  const onReset = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    if (updatePassword.isPending) return;
    const parsed = props.resetSchema.safeParse({ ...identity, ...reset });
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    const { ConfirmPassword: _confirm, ...request } = parsed.data as Record<string, unknown>;
    updatePassword.mutate(request as never, {
      onSuccess: (data) => {
        startOver();
        setOutcome({ kind: 'message', text: data.message });
      },
      onError: (error) => {
        setReset(emptyNewPassword);
        if (error instanceof ApiError && error.code === 'VALIDATION') {
          setErrors(error.fields);
          setOutcome(null);
          return;
        }
        if (error instanceof ApiError && error.code === 'INVALID_CODE') {
          const left = Math.max(0, triesLeft - 1);
          setTriesLeft(left);
          setOutcome({
            kind: 'error',
            text:
              left > 0
                ? `${error.message} This code has ${left} ${left === 1 ? 'try' : 'tries'} left.`
                : `${error.message} This code has no tries left: use Resend code.`,
          });
          return;
        }
        setOutcome({ kind: 'error', text: error.message });
      },
    });
  };

  return (
    <PublicShell title={props.title}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (codeSent) onReset(event);
          else sendCode(event.currentTarget);
        }}
        noValidate
      >
        <Stack>
          <Text size="sm">{props.intro}</Text>
          <OutcomeAlert outcome={outcome} />
          {props.renderIdentity({ identity, setIdentity, errors, readOnly: codeSent })}
          {!codeSent && (
            <Button type="submit" loading={requestCode.isPending}>
              Send One Time Password
            </Button>
          )}
          {codeSent && (
            <>
              <NewPasswordFields values={reset} onChange={setReset} errors={errors} />
              <Button type="submit" loading={updatePassword.isPending} disabled={triesLeft === 0}>
                Submit
              </Button>
              <Group justify="space-between">
                <Button
                  variant="subtle"
                  onClick={() => sendCode(null)}
                  loading={requestCode.isPending}
                  disabled={updatePassword.isPending}
                >
                  Resend code
                </Button>
                <Button variant="subtle" color="gray" onClick={startOver} disabled={updatePassword.isPending}>
                  Start over
                </Button>
              </Group>
            </>
          )}
          <Text size="sm" ta="center">
            <Anchor component={Link} to={props.login.to}>
              {props.login.label}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicShell>
  );
}
