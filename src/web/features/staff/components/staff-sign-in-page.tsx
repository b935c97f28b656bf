import {
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Code,
  List,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { authMessages, newPasswordSchema } from '../../../../domain/auth';
import {
  type StaffNextStep,
  type StaffSessionInfo,
  staffLoginRequestSchema,
  staffMessages,
  totpCodeRequestSchema,
} from '../../../../domain/staff';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { returnPath, returnPathOwner } from '../../../lib/return-path';
import { signOutNotice } from '../../../lib/sign-out-notice';
import { useEnrolmentOffer, useEnrolTotp } from '../api/enrolment';
import { staffSessionQueryKey, useStaffSession } from '../api/staff-session';
import { useChangeInitialPassword, useSecondFactor, useStaffLogin } from '../api/staff-sign-in';

export const STAFF_HOME = '/staff/home';

type Step = 'password' | 'new-password' | 'totp' | 'recovery' | 'enrol' | 'codes';

function messageOf(error: unknown): string | null {
  if (!error) return null;
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}

/** The back office's sign-in: e-mail and password, then the authenticator's code (or enrolment). */
export function StaffSignInPage() {
  const session = useStaffSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const [notice] = useState(signOutNotice.peek);
  useEffect(() => signOutNotice.clear(), []);

  // Signed in: back to the page an idle or ended session left, else home.
  const startPage = (who: StaffSessionInfo | null | undefined) =>
    who?.stage === 'signed-in'
      ? returnPath.for(returnPathOwner('staff', who.staff.id), STAFF_HOME)
      : STAFF_HOME;
  const goIn = () =>
    navigate(startPage(queryClient.getQueryData<StaffSessionInfo | null>(staffSessionQueryKey)), {
      replace: true,
    });

  if (session.isPending) return null;
  const current: Step =
    step ??
    (session.data?.stage === 'second-factor'
      ? session.data.next === 'password'
        ? 'new-password'
        : session.data.next
      : 'password');
  if (session.data?.stage === 'signed-in' && current !== 'codes')
    return <Navigate to={startPage(session.data)} replace />;

  return (
    <PublicShell brand="Back Office" title={current === 'codes' ? 'Recovery Codes' : 'Staff Sign In'}>
      {notice && current === 'password' && (
        <Alert color="blue" role="status" mb="md">
          {notice}
        </Alert>
      )}
      {current === 'password' && (
        <PasswordStep onNext={(next) => setStep(next === 'password' ? 'new-password' : next)} />
      )}
      {current === 'new-password' && (
        <NewPasswordStep
          onNext={(next) => setStep(next === 'totp' ? 'totp' : 'enrol')}
          onExpired={() => setStep('password')}
        />
      )}
      {current === 'totp' && (
        <CodeStep
          kind="verify_totp"
          onDone={goIn}
          onSwitch={() => setStep('recovery')}
          onExpired={() => setStep('password')}
        />
      )}
      {current === 'recovery' && (
        <CodeStep
          kind="verify_recovery_code"
          onDone={goIn}
          onSwitch={() => setStep('totp')}
          onExpired={() => setStep('password')}
        />
      )}
      {current === 'enrol' && (
        <EnrolStep
          onDone={(codes) => {
            setRecoveryCodes(codes);
            setStep('codes');
          }}
        />
      )}
      {current === 'codes' && (
        <RecoveryCodes
          codes={recoveryCodes}
          onDone={async () => {
            await queryClient.invalidateQueries({ queryKey: staffSessionQueryKey });
            goIn();
          }}
        />
      )}
    </PublicShell>
  );
}

function PasswordStep({ onNext }: { onNext: (next: StaffNextStep) => void }) {
  const login = useStaffLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = staffLoginRequestSchema.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    login.mutate(parsed.data, { onSuccess: (answer) => onNext(answer.next), onError: () => setPassword('') });
  };
  const failure = messageOf(login.error);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={errors.email}
          required
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
          required
        />
        <Button type="submit" loading={login.isPending} fullWidth>
          Continue
        </Button>
      </Stack>
    </form>
  );
}

/** First sign-in of a member an admin created: their own password, before the authenticator. */
function NewPasswordStep({
  onNext,
  onExpired,
}: {
  onNext: (next: StaffNextStep) => void;
  onExpired: () => void;
}) {
  const change = useChangeInitialPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = newPasswordSchema().safeParse(password);
    const next: Record<string, string> = {};
    if (!parsed.success) next.password = parsed.error.issues[0]?.message ?? authMessages.newPasswordRequired;
    if (!confirm) next.confirm = authMessages.confirmPasswordRequired;
    else if (confirm !== password) next.confirm = authMessages.passwordMismatch;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    change.mutate(password, {
      onSuccess: (answer) => onNext(answer.next),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) onExpired();
        else if (error instanceof ApiError && error.fields.password)
          setErrors({ password: error.fields.password });
      },
    });
  };
  const failure =
    change.error instanceof ApiError && change.error.fields.password ? null : messageOf(change.error);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text>
          Your account was created by an administrator. Please choose your own password before you set up your
          authenticator app.
        </Text>
        <PasswordInput
          label="New password"
          name="new-password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
          required
        />
        <PasswordInput
          label="Confirm new password"
          name="confirm-password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
          error={errors.confirm}
          required
        />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Button type="submit" loading={change.isPending} fullWidth>
          Set password
        </Button>
      </Stack>
    </form>
  );
}

function CodeStep({
  kind,
  onDone,
  onSwitch,
  onExpired,
}: {
  kind: 'verify_totp' | 'verify_recovery_code';
  onDone: () => void;
  onSwitch: () => void;
  /** The half session ended (10 minutes passed, or the account locked): back to the password. */
  onExpired: () => void;
}) {
  const verify = useSecondFactor(kind);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const totp = kind === 'verify_totp';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (totp) {
      const parsed = totpCodeRequestSchema.safeParse({ code });
      if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    } else if (!code.trim()) {
      return setError(staffMessages.recoveryCodeRequired);
    }
    setError(undefined);
    verify.mutate(code.trim(), {
      onSuccess: onDone,
      onError: (failure) => {
        setCode('');
        if (failure instanceof ApiError && failure.status === 401 && failure.code !== 'INVALID_SIGN_IN_CODE')
          onExpired();
      },
    });
  };
  const failure = messageOf(verify.error);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm">
          {totp
            ? 'Enter the 6-digit code your authenticator app shows for the Back Office.'
            : 'Enter one of the recovery codes you saved when you enrolled. Each code works once.'}
        </Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={totp ? 'Authentication code' : 'Recovery code'}
          name="code"
          autoComplete="one-time-code"
          inputMode={totp ? 'numeric' : 'text'}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={error}
          required
        />
        <Button type="submit" loading={verify.isPending} fullWidth>
          Verify
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onSwitch}>
          {totp ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
        </Anchor>
      </Stack>
    </form>
  );
}

function EnrolStep({ onDone }: { onDone: (codes: string[]) => void }) {
  const offer = useEnrolmentOffer(true);
  const enrol = useEnrolTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = totpCodeRequestSchema.safeParse({ code });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    enrol.mutate(parsed.data.code, {
      onSuccess: (answer) => onDone(answer.recoveryCodes),
      onError: () => setCode(''),
    });
  };
  const failure = messageOf(enrol.error ?? offer.error);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm">
          First sign-in: set up two-step verification. Scan the QR code with an authenticator app (or type the
          key below), then enter the 6-digit code it shows.
        </Text>
        {offer.data && (
          <>
            <Box
              role="img"
              aria-label="QR code of the authenticator key"
              w={200}
              h={200}
              mx="auto"
              // The SVG is drawn by the server from the otpauth URI (uqr): markup of rectangles only.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's QR code SVG
              dangerouslySetInnerHTML={{ __html: offer.data.qrSvg }}
            />
            <Text size="sm">
              Key:{' '}
              <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                {offer.data.secret}
              </Code>
            </Text>
          </>
        )}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={error}
          required
        />
        <Button type="submit" loading={enrol.isPending} fullWidth>
          Confirm
        </Button>
      </Stack>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  return (
    <Stack>
      <Alert color="blue" role="status">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator.
        They are shown only now.
      </Alert>
      <List data-testid="recovery-codes" spacing={4} listStyleType="none" ff="monospace">
        {codes.map((c) => (
          <List.Item key={c}>{c}</List.Item>
        ))}
      </List>
      <Checkbox
        label="I have saved these codes"
        checked={saved}
        onChange={(e) => setSaved(e.currentTarget.checked)}
      />
      <Button disabled={!saved} onClick={onDone} fullWidth>
        Continue to the Back Office
      </Button>
    </Stack>
  );
}
