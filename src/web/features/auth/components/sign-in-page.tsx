import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, Navigate, useNavigate } from 'react-router';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { signOutNotice } from '../../../lib/sign-out-notice';
import { rememberedClientId, useSiteConfig } from '../../../lib/site';
import { useLogin } from '../api/login';
import { useSession } from '../api/session';

// The rules of the form arrive with the first focus on it, not with the page: they bring the
// validation library, which the first paint does not need (DESIGN.md section 10).
const loadRules = () => import('../lib/sign-in-rules');

export function SignInPage() {
  const session = useSession();
  const site = useSiteConfig();
  const navigate = useNavigate();
  const [notice] = useState(signOutNotice.peek);
  useEffect(() => signOutNotice.clear(), []);
  const login = useLogin();
  const [clientId, setClientId] = useState(rememberedClientId.get);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => rememberedClientId.get() !== '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  if (session.data) return <Navigate to="/client-information" replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLElement;
    if (login.isPending) return;
    const { loginRequestSchema, fieldMessages } = await loadRules();
    const parsed = loginRequestSchema.safeParse({ username: clientId, password });
    if (!parsed.success) {
      // Rendered now: after the await, React would render after the frame that moves the focus.
      flushSync(() => setErrors(fieldMessages(parsed.error)));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    login.mutate(parsed.data, {
      onSuccess: () => {
        rememberedClientId.set(remember ? parsed.data.username : null);
        navigate('/client-information', { replace: true });
      },
      onError: () => setPassword(''),
    });
  };

  const failure =
    login.error instanceof ApiError
      ? login.error.message
      : login.error
        ? 'Something went wrong. Please try again.'
        : null;

  return (
    <PublicShell title="Sign In">
      <form onSubmit={onSubmit} onFocus={() => void loadRules()} noValidate>
        <Stack>
          {notice && (
            <Alert color="blue" role="status">
              {notice}
            </Alert>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Client ID"
            name="username"
            autoComplete="username"
            value={clientId}
            onChange={(e) => setClientId(e.currentTarget.value)}
            error={errors.username}
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
          <Group justify="space-between" wrap="wrap">
            <Checkbox
              label="Remember me"
              checked={remember}
              onChange={(e) => setRemember(e.currentTarget.checked)}
            />
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot Your Password?
            </Anchor>
          </Group>
          <Button type="submit" loading={login.isPending} fullWidth>
            Sign In
          </Button>
          <Text size="sm" ta="center">
            Need help?{' '}
            <Anchor href={site.data?.contactUrl} target="_blank" rel="noopener noreferrer">
              Contact us
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicShell>
  );
}
