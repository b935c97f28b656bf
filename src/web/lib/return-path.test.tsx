import { afterEach, describe, expect, it } from 'vitest';
import { isPortalPath, returnPath } from './return-path';

afterEach(() => returnPath.clear());

describe('the page a person returns to after signing in again', () => {
  it.each([
    ['/form-document/Consent-form?page=2', true],
    ['/client-information', true],
    ['/staff/queues/checks?sort=date', true],
    ['/', false],
    ['/physician', false],
    ['/staff', false],
    ['/staff/', false],
    ['//evil.example.com/form-document', false],
    ['/\\evil.example.com', false],
    ['https://evil.example.com/', false],
    ['javascript:alert(1)', false],
    ['form-document/Consent-form', false],
    ['/client-information\n', false],
    ['', false],
  ])('%j is a page of the portal to return to: %s', (path, expected) => {
    expect(isPortalPath(path)).toBe(expected);
  });

  it('takes back only the person whose page it was; anyone else starts at home', () => {
    returnPath.remember('/form-document/Consent-form?page=2', 'client:jane');
    expect(returnPath.for('client:john', '/client-information')).toBe('/client-information');
    expect(returnPath.for('client:jane', '/client-information')).toBe('/form-document/Consent-form?page=2');
    returnPath.clear();
    expect(returnPath.for('client:jane', '/client-information')).toBe('/client-information');
  });

  it('never keeps a path from elsewhere', () => {
    returnPath.remember('//evil.example.com', 'client:jane');
    expect(returnPath.for('client:jane', '/client-information')).toBe('/client-information');
  });
});
