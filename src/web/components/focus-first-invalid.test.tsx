import { afterEach, describe, expect, it, vi } from 'vitest';
import { focusFirstInvalid } from './focus-first-invalid';

/** A form with a valid field and an invalid one, and where scrollIntoView was asked to put the invalid one. */
function formWithAnInvalidField() {
  const form = document.createElement('form');
  form.innerHTML = `
    <input name="firstName" />
    <input name="zip" aria-invalid="true" />
    <input name="country" aria-invalid="true" />`;
  document.body.append(form);
  const zip = form.querySelector<HTMLInputElement>('[name="zip"]') as HTMLInputElement;
  const scrolled = vi.fn();
  zip.scrollIntoView = scrolled;
  return { form, zip, scrolled };
}

/** A fixed header covering the top `height` px of the window, as the portal's frame has. */
function fixedHeader(height: number) {
  const header = document.createElement('header');
  header.style.position = 'fixed';
  header.getBoundingClientRect = () => ({ top: 0, bottom: height, height }) as DOMRect;
  document.body.prepend(header);
}

async function nextFrame() {
  await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('focusFirstInvalid (spec 1 section 9: error scroll offset 30 px)', () => {
  it('scrolls the first invalid field to 30 px below the top of a page without a header, and focuses it', async () => {
    const { form, zip, scrolled } = formWithAnInvalidField();
    focusFirstInvalid(form);
    await nextFrame();
    expect(zip.style.scrollMarginTop).toBe('30px');
    expect(scrolled).toHaveBeenCalledWith(expect.objectContaining({ block: 'start' }));
    expect(document.activeElement).toBe(zip);
  });

  it('puts it 30 px below the portal’s fixed header, not under it', async () => {
    fixedHeader(60);
    const { form, zip, scrolled } = formWithAnInvalidField();
    focusFirstInvalid(form);
    await nextFrame();
    expect(zip.style.scrollMarginTop).toBe('90px');
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(zip);
  });

  it('leaves the page as it is when no field is invalid', async () => {
    const form = document.createElement('form');
    form.innerHTML = '<input name="firstName" />';
    document.body.append(form);
    focusFirstInvalid(form);
    await nextFrame();
    expect(document.activeElement).toBe(document.body);
  });
});
