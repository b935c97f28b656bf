import { useMutation } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInPortal } from '../../../testing/render';
import { QueueActionForm } from './queue-action-form';

type Send = () => Promise<{ message: string }>;

/** The action's form with its own mutation, as a page's (`useVialRequestAction(id)` in the form). */
function LabelAction({ send, onDone }: { send: Send; onDone: (message: string) => void }) {
  const mutation = useMutation<
    { message: string },
    Error,
    { request: { action: string }; idempotencyKey: string }
  >({ mutationFn: send });
  return (
    <QueueActionForm
      mutation={mutation}
      label="Create label"
      onDone={onDone}
      build={() => ({ action: 'create_label' })}
    />
  );
}

/**
 * A queue card whose action form goes once the step is done, as "Create label" goes when the
 * refreshed request reads shipped: the card keeps the answer.
 */
function Card({ send }: { send: Send }) {
  const [done, setDone] = useState<string | null>(null);
  const [formShown, setFormShown] = useState(true);
  return (
    <div>
      <button type="button" onClick={() => setFormShown(false)}>
        Refresh
      </button>
      {formShown && <LabelAction send={send} onDone={setDone} />}
      {done && <p role="status">{done}</p>}
    </div>
  );
}

describe('a queue action', () => {
  it('sends one request for a double click, and its answer reaches the card after the form has gone', async () => {
    let calls = 0;
    let answer: (value: { message: string }) => void = () => {};
    const send = () => {
      calls += 1;
      return new Promise<{ message: string }>((resolve) => {
        answer = resolve;
      });
    };
    renderInPortal(<Card send={send} />);
    // Both clicks of a double click land before the page renders again.
    const create = screen.getByRole('button', { name: 'Create label' });
    fireEvent.click(create);
    fireEvent.click(create);
    await waitFor(() => expect(calls).toBeGreaterThan(0));
    expect(calls).toBe(1);
    // The refreshed card no longer shows the form; then the answer comes.
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(screen.queryByRole('button', { name: 'Create label' })).toBeNull();
    answer({ message: 'The label was created and the request marked shipped.' });
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'The label was created and the request marked shipped.',
      ),
    );
  });
});
