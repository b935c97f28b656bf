import { Alert, Button, Group, Radio, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { shipmentMessages as m } from '../../../../domain/shipment';
import { PublicShell } from '../../../components/public-shell';
import { ApiError } from '../../../lib/api-client';
import { useConfirmDelivery, useDeliveryLink } from '../api/delivery-confirmation';
import { signedLinkState } from './signed-link-state';

const TITLE = 'Delivery confirmation';

/**
 * /delivery-confirmation/{token}: the clinic, from the link e-mailed at delivery, confirms the
 * stem cells arrived frozen or says what was wrong. No account: the signed link is the key.
 */
export function DeliveryConfirmationPage() {
  const token = useParams().token ?? '';
  const link = useDeliveryLink(token);
  const confirm = useConfirmDelivery(token);
  const [choice, setChoice] = useState<'frozen' | 'problem' | ''>('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  let body: ReactNode = signedLinkState(token, link, m.confirmInvalid);
  if (!body && link.data) {
    const view = link.data;
    const onSubmit = (event: FormEvent) => {
      event.preventDefault();
      if (confirm.isPending) return;
      if (!choice) return setProblem('Please choose an answer');
      if (choice === 'problem' && !note.trim()) return setProblem(m.confirmNoteRequired);
      setProblem(null);
      confirm.mutate({ arrivedFrozen: choice === 'frozen', note: note.trim() });
    };
    body = (
      <Stack gap="md">
        <Text>
          Stem cell package {view.reference}: {view.vials} {view.vials === 1 ? 'vial' : 'vials'}
          {view.clinicName ? ` for ${view.clinicName}` : ''}, delivered by FedEx on {view.deliveredOn}.
        </Text>
        {view.answer ? (
          <Alert color="teal" variant="light" role="status">
            {m.confirmThanks}{' '}
            {view.answer.arrivedFrozen
              ? 'The cells arrived frozen.'
              : `You reported a problem: ${view.answer.note}. The bank will contact you.`}
          </Alert>
        ) : (
          <form onSubmit={onSubmit} aria-label={TITLE} noValidate>
            <Stack gap="sm">
              <Radio.Group
                label="Did the cells arrive frozen?"
                value={choice}
                onChange={(value) => setChoice(value as 'frozen' | 'problem')}
              >
                <Stack gap="xs" mt="xs">
                  <Radio value="frozen" label="Yes, the cells arrived frozen" />
                  <Radio value="problem" label="No, there was a problem" />
                </Stack>
              </Radio.Group>
              {choice === 'problem' && (
                <Textarea
                  label="What was wrong?"
                  value={note}
                  onChange={(e) => setNote(e.currentTarget.value)}
                  maxLength={500}
                  autosize
                  minRows={3}
                />
              )}
              {(problem || confirm.error) && (
                <Text c="red.8" role="alert">
                  {problem ??
                    (confirm.error instanceof ApiError ? confirm.error.message : 'Please try again.')}
                </Text>
              )}
              <Group>
                <Button type="submit" loading={confirm.isPending}>
                  Send the answer
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    );
  }
  return (
    <PublicShell title={TITLE} width={640}>
      {body}
    </PublicShell>
  );
}
