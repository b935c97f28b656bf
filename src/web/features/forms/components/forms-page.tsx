import { Alert, Anchor, Badge, Stack, Tabs, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { FormDocuments } from '../../../../domain/consent-form';
import { useFormDocuments } from '../api/get-form-documents';
import { ConsentTab } from './consent-tab';
import { DiseaseTab } from './disease-tab';

const TABS = { consent: 'Consent-form', disease: 'Infectious-disease' } as const;

/** The tab a path names, whatever its letter case; anything else opens the consent form. */
function tabOf(id: string | undefined) {
  return id?.toLowerCase() === TABS.disease.toLowerCase() ? TABS.disease : TABS.consent;
}

type FormState = 'Done' | 'To do' | 'Needs attention';

/** Where each form stands, on its tab: red only where something needs the client. */
function formStates(documents: FormDocuments): Record<(typeof TABS)[keyof typeof TABS], FormState> {
  const disease = documents.infectiousDisease;
  return {
    [TABS.consent]: documents.consent.completed ? 'Done' : 'To do',
    [TABS.disease]: disease.rejection ? 'Needs attention' : disease.completed ? 'Done' : 'To do',
  };
}

// Filled, dark shades: white text on them passes the contrast check at a badge's small size.
const STATE_COLORS: Record<FormState, string> = {
  Done: 'teal.9',
  'To do': 'gray.7',
  'Needs attention': 'red.9',
};

function StateChip({ state }: { state: FormState | undefined }) {
  if (!state) return null;
  return (
    <Badge variant="filled" color={STATE_COLORS[state]} size="sm" radius="sm">
      {state}
    </Badge>
  );
}

/** What a tab switch leaves on the new history entry: the tab it was opened from. */
interface TabSwitch {
  tabFrom: string;
}

function tabFromOf(state: unknown) {
  return typeof state === 'object' && state !== null && 'tabFrom' in state
    ? (state as TabSwitch).tabFrom
    : undefined;
}

/**
 * Forms and Other Documents (spec 2, section 2): the Client Consent Form and the Infectious Disease
 * Form as two tabs of one page. The path chooses the tab, so a reload keeps it.
 *
 * History: a switch to the other tab is one step, so Back from it shows the tab (and the consent
 * form's page) it was opened from. Switching back to that tab is that same Back, not a new step, so
 * a round trip leaves the history as it was: Back then undoes the consent form's last page move,
 * never lands on the other tab.
 */
export function FormsPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const documents = useFormDocuments();
  const tab = tabOf(id);
  const states = documents.data ? formStates(documents.data) : undefined;
  // The consent form's page (`?page=2`) is kept for the way back from the other tab.
  const { search, state, key } = useLocation();
  const consentSearch = useRef('');
  if (tab === TABS.consent) consentSearch.current = search;
  // The entry a Back was already asked from: a second click before it lands must not go back twice.
  const backFrom = useRef<string | null>(null);
  useEffect(() => {
    // Landed (on the tab before, or anywhere by Back and Forward): tab clicks count again.
    if (backFrom.current !== key) backFrom.current = null;
  }, [key]);

  const switchTab = (value: string | null) => {
    if (!value || value === tab || backFrom.current === key) return;
    if (tabFromOf(state) === value) {
      backFrom.current = key;
      navigate(-1);
      return;
    }
    const tabSwitch: TabSwitch = { tabFrom: tab };
    navigate(`/form-document/${value}${value === TABS.consent ? consentSearch.current : ''}`, {
      state: tabSwitch,
    });
  };

  useEffect(() => {
    if (id !== tab) navigate(`/form-document/${tab}${window.location.search}`, { replace: true });
  }, [id, tab, navigate]);

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        Forms and Other Documents
      </Title>
      <Text size="sm">
        The card or bank account on file is shown on the forms.{' '}
        <Anchor component={Link} to="/payment-information" size="sm">
          Update payment information
        </Anchor>
      </Text>

      {documents.isError && (
        <Alert color="red" role="alert">
          {documents.error.message}
        </Alert>
      )}

      {/* Both tabs stay mounted (the hidden one out of sight and of the accessibility tree), so a
          look at the other form loses nothing typed or drawn on this one. */}
      <Tabs value={tab} onChange={switchTab} keepMounted>
        <Tabs.List>
          <Tabs.Tab value={TABS.consent} rightSection={<StateChip state={states?.[TABS.consent]} />}>
            Client Consent Form
          </Tabs.Tab>
          <Tabs.Tab value={TABS.disease} rightSection={<StateChip state={states?.[TABS.disease]} />}>
            Infectious Disease Form
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value={TABS.consent} pt="lg">
          {documents.data && <ConsentTab documents={documents.data} />}
        </Tabs.Panel>
        <Tabs.Panel value={TABS.disease} pt="lg">
          {documents.data && <DiseaseTab documents={documents.data} />}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
