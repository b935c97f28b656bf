import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInPortal } from '../testing/render';
import { LoadingSpinner } from './loading-spinner';

describe('a spinner that says what it loads', () => {
  it('is a progress bar named by its label, so its name is permitted and read', () => {
    renderInPortal(<LoadingSpinner label="Loading your clients" />);
    expect(screen.getByRole('progressbar', { name: 'Loading your clients' })).toBeTruthy();
  });
});
