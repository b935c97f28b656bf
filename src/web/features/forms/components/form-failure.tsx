import { Button } from '@mantine/core';
import { SubmitFailure } from '../../../components/submit-failure';
import type { SubmissionFailure } from '../lib/submission-failure';

/**
 * The server's or the gateway's refusal of a form, under its Submit button, brought into view and
 * focused (SubmitFailure); when the text signed changed meanwhile, a button loads it again.
 */
export function FormFailure({
  failure,
  reloadLabel,
}: {
  failure: Pick<SubmissionFailure, 'message' | 'textChanged'> | null;
  reloadLabel: string;
}) {
  return (
    <SubmitFailure message={failure?.message ?? null}>
      {failure?.textChanged && (
        <Button variant="light" size="xs" mt="xs" onClick={() => window.location.reload()}>
          {reloadLabel}
        </Button>
      )}
    </SubmitFailure>
  );
}
