import { Text } from '@mantine/core';

/** What the server answered to a staff action. */
export interface ActionAnswerValue {
  text: string;
  problem: boolean;
}

/**
 * The server's answer under the button that asked: announced as a status, or as an alert in red
 * when it is a problem (red only for problems).
 */
export function ActionAnswer({ answer }: { answer: ActionAnswerValue | null | undefined }) {
  if (!answer) return null;
  return (
    <Text size="sm" c={answer.problem ? 'red.8' : undefined} role={answer.problem ? 'alert' : 'status'}>
      {answer.text}
    </Text>
  );
}
