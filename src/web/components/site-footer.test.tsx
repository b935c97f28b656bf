import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInPortal } from '../testing/render';
import { SiteFooter } from './site-footer';

describe('the foot of every page', () => {
  it("names the bank, its phone to call, where to write and the privacy notice, from the bank's settings", () => {
    renderInPortal(<SiteFooter />);
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toBe('ACT·(305) 555-0100·Contact ACT·Privacy');
    expect(screen.getByRole('link', { name: '(305) 555-0100' }).getAttribute('href')).toBe(
      'tel:+13055550100',
    );
    expect(screen.getByRole('link', { name: 'Contact ACT' }).getAttribute('href')).toBe(
      'https://www.stemcellbank.example.com/contact-us',
    );
    expect(screen.getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe(
      'https://www.stemcellbank.example.com/privacy',
    );
  });
});
