import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useIdleSignOut } from '../app/use-idle-sign-out';
import { renderInPortal } from '../testing/render';
import { IdleWarningDialog } from './idle-warning-dialog';

/** A signed-in frame as the layouts have it: the idle clock and its warning. */
function Frame(props: { idleMs: number; onIdle(): void; keepAlive(): void; onSignOut(): void }) {
  const idle = useIdleSignOut({ onIdle: props.onIdle, keepAlive: props.keepAlive, idleMs: props.idleMs });
  return (
    <IdleWarningDialog
      opened={idle.warning}
      warnBeforeMs={idle.warnBeforeMs}
      onStay={idle.staySignedIn}
      onSignOut={props.onSignOut}
    />
  );
}

function start(idleMs = 300_000) {
  const calls = { onIdle: vi.fn(), keepAlive: vi.fn(), onSignOut: vi.fn() };
  renderInPortal(<Frame idleMs={idleMs} {...calls} />);
  return calls;
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
/** The dialog's fade (200 ms) and its focus. */
const settle = () => advance(300);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the warning before an idle sign-out', () => {
  it('shows a minute before the 5 minutes, as a dialog named by its title, with "Stay signed in" focused', async () => {
    const calls = start();
    await advance(3 * 60_000 + 59_000);
    expect(screen.queryByRole('dialog')).toBeNull();
    await advance(1_000);
    await settle();
    const dialog = screen.getByRole('dialog', { name: 'You will be signed out soon' });
    expect(dialog.textContent).toContain(
      'For your security, you will be signed out in about a minute because there has been no activity.',
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(calls.onIdle).not.toHaveBeenCalled();
  });

  it('keeps the session on "Stay signed in": the server is told, and the 5 minutes start again', async () => {
    const calls = start();
    await advance(4 * 60_000);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(calls.keepAlive).toHaveBeenCalledTimes(1);
    await advance(500);
    expect(screen.queryByRole('dialog')).toBeNull();
    await advance(3 * 60_000 + 59_000);
    expect(calls.onIdle).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    await advance(1_000);
    await settle();
    expect(screen.getByRole('dialog', { name: 'You will be signed out soon' })).toBeTruthy();
  });

  it('keeps the session on Escape too, from the keyboard alone', async () => {
    const calls = start();
    await advance(4 * 60_000);
    await settle();
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(calls.keepAlive).toHaveBeenCalledTimes(1);
    await advance(60_000);
    expect(calls.onIdle).not.toHaveBeenCalled();
  });

  it('signs out at 5 minutes when nobody answers, and at once on "Sign out"', async () => {
    const calls = start();
    await advance(4 * 60_000);
    // A pointer passing over the page does not answer the warning.
    fireEvent.pointerMove(document.body);
    await advance(59_999);
    expect(calls.onIdle).not.toHaveBeenCalled();
    await advance(1);
    expect(calls.onIdle).toHaveBeenCalledTimes(1);

    const other = start();
    await advance(4 * 60_000);
    await settle();
    fireEvent.click(screen.getAllByRole('button', { name: 'Sign out' })[0] as HTMLElement);
    expect(other.onSignOut).toHaveBeenCalledTimes(1);
  });

  it('warns halfway when the idle time is set under two minutes (20 seconds: at 10)', async () => {
    start(20_000);
    await advance(9_999);
    expect(screen.queryByRole('dialog')).toBeNull();
    await advance(1);
    await settle();
    expect(screen.getByRole('dialog').textContent).toContain('signed out in about 10 seconds');
  });

  it('tells the server of activity at most once a minute, and once more after it stops', async () => {
    const calls = start();
    await advance(61_000);
    fireEvent.keyDown(window, { key: 'a' });
    await advance(300);
    expect(calls.keepAlive).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(window, { key: 'b' });
    await advance(300);
    expect(calls.keepAlive).toHaveBeenCalledTimes(1);
    await advance(60_000);
    expect(calls.keepAlive).toHaveBeenCalledTimes(2);
  });
});
