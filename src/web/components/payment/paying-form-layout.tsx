import { Grid } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A paying form's page: the fields, the order summary and the button with its refusal. Beside the
 * fields on a wide screen; on a phone the summary comes after the fields and before the button,
 * so the amount is read before it is paid (never below the button, off-screen).
 */
export function PayingFormLayout({
  fields,
  summary,
  actions,
  fieldsSpan = 7,
}: {
  fields: ReactNode;
  summary: ReactNode;
  actions: ReactNode;
  /** Of 12 columns on a wide screen; the summary takes the rest. */
  fieldsSpan?: number;
}) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: fieldsSpan }}>{fields}</Grid.Col>
      <Grid.Col span={{ base: 12, md: 12 - fieldsSpan }}>{summary}</Grid.Col>
      <Grid.Col span={{ base: 12, md: fieldsSpan }}>{actions}</Grid.Col>
    </Grid>
  );
}
