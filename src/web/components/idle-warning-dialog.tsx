import { Button, Group, Modal, Text } from '@mantine/core';
import { idleTimeText } from '../../domain/auth-policy';

export const IDLE_WARNING_TITLE = 'You will be signed out soon';

/** "about a minute", or the seconds left when the idle time is set shorter than two minutes. */
function timeLeftText(warnBeforeMs: number) {
  return warnBeforeMs >= 60_000 ? 'about a minute' : `about ${idleTimeText(warnBeforeMs)}`;
}

interface Props {
  opened: boolean;
  /** How long before the sign-out the warning shows. */
  warnBeforeMs: number;
  onStay(): void;
  onSignOut(): void;
}

/**
 * The warning before an idle sign-out (issue 24): a dialog that takes the focus, so a screen
 * reader reads its title and sentence, with "Stay signed in" focused. Escape keeps the session
 * too: whoever pressed it is here.
 */
export function IdleWarningDialog({ opened, warnBeforeMs, onStay, onSignOut }: Props) {
  return (
    <Modal
      opened={opened}
      onClose={onStay}
      title={IDLE_WARNING_TITLE}
      centered
      withCloseButton={false}
      closeOnClickOutside={false}
      trapFocus
      returnFocus
      zIndex={500}
    >
      <Text>
        For your security, you will be signed out in {timeLeftText(warnBeforeMs)} because there has been no
        activity.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onSignOut}>
          Sign out
        </Button>
        <Button onClick={onStay} data-autofocus>
          Stay signed in
        </Button>
      </Group>
    </Modal>
  );
}
