import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, Navigate, useNavigate } from 'react-router';
import { focusFirstInvalid } from '../../../components/focus-first-invalid';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { returnPath, returnPathOwner } from '../../../lib/return-path';
import { homeOf, type Role, type Session, sessionQuery, useSession } from '../../../lib/session';
import { signOutNotice } from '../../../lib/sign-out-notice';
import { rememberedClientId, rememberedPhysicianId, useSiteConfig } from '../../../lib/site';
import { useLogin } from '../api/login';
import { usePhysicianLogin } from '../api/physician-login';

// The rules of the form arrive with the first focus on it, not with the page: they bring the
// validation library, which the first paint does not need (DESIGN.md section 10).
const loadRules = () => import('../lib/sign-in-rules');

/** What differs between the client's and the physician's sign-in; the page is otherwise one. */
const signInOf = {
  client: {
    title: 'Sign In',
    idLabel: 'Client ID',
    remembered: rememberedClientId,
    forgotPassword: '/forgot-password',
    other: { to: '/physician', label: 'Physician sign-in' },
  },
  physician: {
    title: 'Physician Sign In',
    idLabel: 'Physician ID',
    remembered: rememberedPhysicianId,
    forgotPassword: '/physician/forgot-password',
    other: { to: '/', label: 'Client sign-in' },
  },
} as const;

/** The sign-in page of a role (the client's at `/`, the physician's at `/physician`). */
export function SignInPage({ portal = 'client' }: { portal?: Role }) {
  const config = signInOf[portal];
  const session = useSession();
  const site = useSiteConfig();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [notice] = useState(signOutNotice.peek);
  useEffect(() => signOutNotice.clear(), []);
  // Both hooks are called so the order of hooks never depends on the role; one of them is used.
  const clientLogin = useLogin();
  const physicianLogin = usePhysicianLogin();
  const login = portal === 'physician' ? physicianLogin : clientLogin;
  const [userId, setUserId] = useState(config.remembered.get);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => config.remembered.get() !== '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  // Signed in (now, or already): back to the page an idle or ended session left, else home.
  const startPage = (who: Session) => returnPath.for(returnPathOwner(who.role, who.id), homeOf[who.role]);
  if (session.data) return <Navigate to={startPage(session.data)} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLElement;
    if (login.isPending) return;
    const rules = await loadRules();
    const schema = portal === 'physician' ? rules.physicianLoginRequestSchema : rules.loginRequestSchema;
    const parsed = schema.safeParse({ username: userId, password });
    if (!parsed.success) {
      // Rendered now: after the await, React would render after the frame that moves the focus.
      flushSync(() => setErrors(rules.fieldMessages(parsed.error)));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    login.mutate(parsed.data, {
      onSuccess: async () => {
        config.remembered.set(remember ? parsed.data.username : null);
        // The session, once in the cache, sends this page on (the <Navigate> above): navigating here
        // as well would start a second navigation, which could take back a link pressed meanwhile.
        const who = await queryClient.fetchQuery(sessionQuery).catch(() => null);
        if (!who) navigate(homeOf[portal], { replace: true });
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
    <PublicShell title={config.title}>
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
            label={config.idLabel}
            name="username"
            autoComplete="username"
            value={userId}
            onChange={(e) => setUserId(e.currentTarget.value)}
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
            <Anchor component={Link} to={config.forgotPassword} size="sm">
              Forgot Your Password?
            </Anchor>
          </Group>
          <Button type="submit" loading={login.isPending} fullWidth>
            Sign In
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to={config.other.to}>
              {config.other.label}
            </Anchor>
          </Text>
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
