import { Anchor, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed, IconCircleX } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';
import type { ReleaseItem, ReleaseReadiness } from '../../domain/release-readiness';

/** Where the client does what an item waits for, in the Client Portal. */
const clientLinks: Partial<Record<ReleaseItem['key'], { to: string; label: string }>> = {
  consent: { to: '/form-document/Consent-form', label: 'Sign the client consent' },
  screening: { to: '/form-document/Infectious-disease', label: 'Go to the infectious disease screening' },
  storage: { to: '/payment-information', label: 'Go to Payment Information' },
};

/**
 * How an item stands: done; missing (it holds a request and only someone's action clears it, in
 * red: a problem); not yet (it holds a request until its day); waiting (a step of the release).
 */
function stateOf(item: ReleaseItem): { word: string; color: string; icon: typeof IconCircleCheck } {
  if (item.done) return { word: 'Done', color: 'teal', icon: IconCircleCheck };
  if (item.holdsRequest && !item.clearsOn) return { word: 'Missing', color: 'red', icon: IconCircleX };
  if (item.holdsRequest) return { word: 'Not yet', color: 'orange', icon: IconCircleDashed };
  return { word: 'Waiting', color: 'gray', icon: IconCircleDashed };
}

/**
 * The release checklist (issue 22), as the server computed it: each item done, or what it waits
 * for and the day it clears. `links`: the client's own pages where they can act (not for staff or
 * a physician, whose pages differ).
 */
export function ReleaseChecklist({ readiness, links }: { readiness: ReleaseReadiness; links: boolean }) {
  const titleId = useId();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={titleId}>
          Release checklist
        </Title>
        <List
          listStyleType="none"
          spacing="sm"
          aria-labelledby={titleId}
          styles={{ itemWrapper: { width: '100%' } }}
        >
          {readiness.items.map((item) => {
            const state = stateOf(item);
            const link = links && item.byClient ? clientLinks[item.key] : undefined;
            const Icon = state.icon;
            return (
              <List.Item key={item.key} data-item={item.key}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Icon
                    aria-hidden
                    size={22}
                    color={`var(--mantine-color-${state.color}-8)`}
                    style={{ flexShrink: 0, marginTop: 1 }}
                  />
                  <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                    <Group gap="xs" wrap="wrap">
                      <Text fw={600}>{item.label}</Text>
                      <Text
                        span
                        size="xs"
                        fw={700}
                        px={6}
                        c={`${state.color}.9`}
                        bg={`${state.color}.0`}
                        bd={`1px solid var(--mantine-color-${state.color}-3)`}
                        style={{ borderRadius: 4 }}
                      >
                        {state.word}
                      </Text>
                    </Group>
                    <Text
                      size="sm"
                      c={state.color === 'red' ? 'red.9' : undefined}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {item.text}
                    </Text>
                    {link && (
                      <Anchor component={Link} to={link.to} size="sm">
                        {link.label}
                      </Anchor>
                    )}
                  </Stack>
                </Group>
              </List.Item>
            );
          })}
        </List>
      </Stack>
    </Card>
  );
}
