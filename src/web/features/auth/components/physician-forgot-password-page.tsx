import { TextInput } from '@mantine/core';
import { physicianOtpRequestSchema, physicianPasswordResetFormSchema } from '../../../../domain/auth';
import { useRequestPhysicianCode, useUpdatePhysicianPassword } from '../api/physician-password';
import { PasswordRecovery } from './password-recovery';

const emptyIdentity = { physicianId: '', email: '' };

/** A physician's password recovery: Physician ID and e-mail, then the code and a new password. */
export function PhysicianForgotPasswordPage() {
  const requestCode = useRequestPhysicianCode();
  const updatePassword = useUpdatePhysicianPassword();
  return (
    <PasswordRecovery
      title="Physician Forgot Password"
      intro="Enter your Physician ID and the email we have on file. We will email you a one time password to set a new password."
      emptyIdentity={emptyIdentity}
      identitySchema={physicianOtpRequestSchema}
      resetSchema={physicianPasswordResetFormSchema()}
      requestCode={requestCode}
      updatePassword={updatePassword}
      clearIdentityOnFailure={false}
      login={{ to: '/physician', label: 'Physician Login' }}
      renderIdentity={({ identity, setIdentity, errors, readOnly }) => (
        <>
          <TextInput
            label="Physician ID"
            name="physicianId"
            autoComplete="username"
            value={identity.physicianId}
            onChange={(e) => setIdentity({ ...identity, physicianId: e.currentTarget.value })}
            error={errors.physicianId}
            readOnly={readOnly}
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
            readOnly={readOnly}
            required
          />
        </>
      )}
    />
  );
}
