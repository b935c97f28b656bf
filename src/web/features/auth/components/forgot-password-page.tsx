import { TextInput } from '@mantine/core';
import { otpRequestSchema, passwordResetFormSchema } from '../../../../domain/auth';
import { todayFor } from '../../../../domain/client';
import { DateOfBirthInput } from '../../../components/date-of-birth-input';
import { useRequestOneTimePassword } from '../api/get-otp';
import { useUpdatePassword } from '../api/update-password';
import { PasswordRecovery } from './password-recovery';

const emptyIdentity = { email: '', firstName: '', dateOfBirth: '' };

/** A client's password recovery: e-mail, first name and date of birth, then the code. */
export function ForgotPasswordPage() {
  const today = todayFor(new Date());
  const requestCode = useRequestOneTimePassword();
  const updatePassword = useUpdatePassword();
  return (
    <PasswordRecovery
      title="Forgot Password"
      intro="Enter the email, first name and date of birth we have on file. We will email you a one time password to set a new password."
      emptyIdentity={emptyIdentity}
      identitySchema={otpRequestSchema(today)}
      resetSchema={passwordResetFormSchema(today)}
      requestCode={requestCode}
      updatePassword={updatePassword}
      clearIdentityOnFailure
      login={{ to: '/', label: 'Login' }}
      renderIdentity={({ identity, setIdentity, errors, readOnly }) => (
        <>
          <TextInput
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={identity.email}
            onChange={(e) => setIdentity({ ...identity, email: e.currentTarget.value })}
            error={errors.email}
            readOnly={readOnly}
            required
          />
          <TextInput
            label="First Name"
            name="firstName"
            autoComplete="given-name"
            value={identity.firstName}
            onChange={(e) => setIdentity({ ...identity, firstName: e.currentTarget.value })}
            error={errors.firstName}
            readOnly={readOnly}
            required
          />
          <DateOfBirthInput
            label="Date of Birth"
            name="dateOfBirth"
            value={identity.dateOfBirth}
            onChange={(dateOfBirth) => setIdentity({ ...identity, dateOfBirth })}
            maxDate={today}
            error={errors.dateOfBirth}
            readOnly={readOnly}
            required
            calendarAbove
          />
        </>
      )}
    />
  );
}
