import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { queryClient } from '../lib/query-client';
import { sessionQueryKey } from '../lib/session';

export const LEAVE_TITLE = 'Leave this page?';
export const LEAVE_MESSAGE = 'Your changes have not been saved. If you leave, they will be lost.';

/** The first segment of a path ("/form-document/Consent-form" is in "/form-document"). */
function sectionOf(pathname: string) {
  return `/${pathname.split('/')[1] ?? ''}`.toLowerCase();
}

/**
 * Asks before a form with unsaved changes is left: another page of the portal (React Router's
 * blocker, with the portal's own dialog) or the browser's reload, close or address bar
 * (beforeunload, with the browser's own). Moving within the form's section (its pages, its tabs,
 * `?page=2`) is not leaving it. Sign-out is never held up: the session is gone by then.
 * `onLeave`: the changes are dropped, as the question says (a draft kept of them goes too).
 */
export function LeaveGuard({ when, onLeave }: { when: boolean; onLeave?: () => void }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when &&
      queryClient.getQueryData(sessionQueryKey) !== null &&
      sectionOf(currentLocation.pathname) !== sectionOf(nextLocation.pathname),
  );

  useEffect(() => {
    if (!when) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [when]);

  // The changes were saved or dropped while the question was open: let the move go on.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.proceed();
  }, [blocker, when]);

  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={LEAVE_TITLE}
      centered
    >
      <Text>{LEAVE_MESSAGE}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          Stay on this page
        </Button>
        <Button
          onClick={() => {
            onLeave?.();
            blocker.proceed?.();
          }}
        >
          Leave
        </Button>
      </Group>
    </Modal>
  );
}
