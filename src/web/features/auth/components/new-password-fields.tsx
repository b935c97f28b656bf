import { Alert, PasswordInput, TextInput } from '@mantine/core';

/** The second step of every password recovery: the code from the e-mail and the new password. */
export interface NewPasswordValues {
  OneTimePassword: string;
  UpdatedPassword: string;
  ConfirmPassword: string;
}

export const emptyNewPassword: NewPasswordValues = {
  OneTimePassword: '',
  UpdatedPassword: '',
  ConfirmPassword: '',
};

export type Outcome = { kind: 'message' | 'error'; text: string } | null;

export function NewPasswordFields({
  values,
  onChange,
  errors,
}: {
  values: NewPasswordValues;
  onChange: (values: NewPasswordValues) => void;
  errors: Record<string, string>;
}) {
  return (
    <>
      <TextInput
        label="One Time Password"
        name="OneTimePassword"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        value={values.OneTimePassword}
        onChange={(e) => onChange({ ...values, OneTimePassword: e.currentTarget.value })}
        error={errors.OneTimePassword}
        required
      />
      <PasswordInput
        label="New Password"
        name="UpdatedPassword"
        autoComplete="new-password"
        description="At least 12 characters. A long phrase is easy to remember and hard to guess."
        value={values.UpdatedPassword}
        onChange={(e) => onChange({ ...values, UpdatedPassword: e.currentTarget.value })}
        error={errors.UpdatedPassword}
        required
      />
      <PasswordInput
        label="Confirm Password"
        name="ConfirmPassword"
        autoComplete="new-password"
        value={values.ConfirmPassword}
        onChange={(e) => onChange({ ...values, ConfirmPassword: e.currentTarget.value })}
        error={errors.ConfirmPassword}
        required
      />
    </>
  );
}

/** What the server answered to a recovery step: a message in green, a failure in red. */
export function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <Alert
      color={outcome.kind === 'error' ? 'red' : 'green'}
      role={outcome.kind === 'error' ? 'alert' : 'status'}
    >
      {outcome.text}
    </Alert>
  );
}
