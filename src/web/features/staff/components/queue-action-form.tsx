import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import type { QueueItemAction } from '../api/queues';

const newKey = () => crypto.randomUUID();

type ItemMutation<A> = UseMutationResult<{ message: string }, Error, { request: A; idempotencyKey: string }>;

/**
 * One action's form on a queue item: its fields, its button, and under it the answer (red only
 * for a problem). The submission's key is kept until an answer comes, so a double click is one
 * submission.
 */
export interface QueueActionFormProps<A extends QueueItemAction> {
  label: string;
  /** The button's words when they say more than the form's name (the amount it charges). */
  buttonLabel?: string;
  /** The answer's message: shown by the card, since the form goes once its step is done. */
  onDone: (message: string) => void;
  children?: ReactNode;
  /** The action to send, or the message of the field that stops it. */
  build: () => A | { problem: string };
}

export function QueueActionForm<A extends QueueItemAction>({
  mutation,
  label,
  buttonLabel = label,
  children,
  build,
  onDone,
}: QueueActionFormProps<A> & {
  /** The item's action hook, called by the page (`useVialRequestAction(id)`). */
  mutation: ItemMutation<A>;
}) {
  const key = useRef(newKey());
  // Set at once, not at the next render: the second click of a double click sends nothing.
  const sending = useRef(false);
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current || mutation.isPending) return;
    const request = build();
    if ('problem' in request) {
      setProblem(request.problem);
      return;
    }
    setProblem(null);
    sending.current = true;
    // The answer goes to the card even when this form has gone meanwhile (its step is done and
    // the refreshed card no longer shows it), which a mutate() callback would not outlive.
    mutation
      .mutateAsync({ request, idempotencyKey: key.current })
      .then(
        (answer) => onDone(answer.message),
        (error: unknown) =>
          setProblem(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.'),
      )
      .finally(() => {
        sending.current = false;
        key.current = newKey();
      });
  };
  return (
    <form onSubmit={onSubmit} aria-label={label} noValidate>
      <Stack gap={4}>
        <Group align="flex-end" wrap="wrap" gap="xs">
          {children}
          <Button type="submit" loading={mutation.isPending}>
            {buttonLabel}
          </Button>
        </Group>
        {problem && (
          <Text c="red.8" size="sm" role="alert">
            {problem}
          </Text>
        )}
      </Stack>
    </form>
  );
}

/** A carrier label's tools: the PDF to print and, until delivery, asking the carrier now. */
export function LabelTools({
  labelHref,
  delivered,
  trackForm,
}: {
  labelHref: string;
  delivered: boolean;
  /** The "Check tracking now" form, on the item's own action hook. */
  trackForm: ReactNode;
}) {
  return (
    <Group gap="sm">
      <Anchor href={labelHref} target="_blank" rel="noopener">
        Print the label (PDF)
      </Anchor>
      {!delivered && trackForm}
    </Group>
  );
}
