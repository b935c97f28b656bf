import { Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { billingRunDate, billingRunSummary } from '../../../../domain/storage-billing';
import { ApiError } from '../../../lib/api-client';
import { useRunBilling } from '../api/billing';
import { errorText } from './admin-only';

const newKey = () => crypto.randomUUID();

/** Demo mode, admins: bills each day from the day after the last run up to the date typed. */
export function RunBillingForm({ lastRunDay }: { lastRunDay: string | null }) {
  const run = useRunBilling();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  // Set on the press itself: a second click before React re-renders sends nothing.
  const running = useRef(false);
  const headingId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (running.current) return;
    const entry = billingRunDate(typed, lastRunDay);
    setProblem(entry.problem);
    if (entry.asOf === null) return;
    running.current = true;
    setResult(null);
    run.mutate(
      { asOf: entry.asOf, idempotencyKey: newKey() },
      {
        onSuccess: (answer) => setResult(billingRunSummary(answer)),
        onError: (error) => {
          if (error instanceof ApiError && error.fields.asOf) setProblem(error.fields.asOf);
        },
        onSettled: () => {
          running.current = false;
        },
      },
    );
  };
  const failure = run.error instanceof ApiError && run.error.fields.asOf ? null : errorText(run.error);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="xs">
        Run billing as of…
      </Title>
      <Text size="sm" mb="sm">
        Demo only: bills each day from the day after the last run up to this date (notices, charges, retries,
        overdue years), as the daily run would have. The application's clock does not move.
      </Text>
      <form onSubmit={onSubmit} noValidate aria-labelledby={headingId}>
        <Stack align="flex-start" gap="sm">
          <TextInput
            label="Run billing as of"
            placeholder="MM/DD/YYYY"
            inputMode="numeric"
            autoComplete="off"
            value={typed}
            error={problem}
            onChange={(event) => {
              setTyped(event.currentTarget.value);
              setProblem(null);
            }}
            w={220}
            maw="100%"
          />
          <Button type="submit" loading={run.isPending}>
            Run billing
          </Button>
        </Stack>
        {failure && (
          <Text c="red.8" size="sm" role="alert" mt="xs">
            {failure}
          </Text>
        )}
        {result && !run.isPending && (
          <Text size="sm" role="status" mt="xs" fw={600}>
            {result}
          </Text>
        )}
      </form>
    </Card>
  );
}
