/** Spec 1 section 9: a failing field is scrolled into view 30 px below the top of what the reader sees. */
export const ERROR_SCROLL_OFFSET = 30;

/** The bottom of the portal's fixed header (it covers the top of the page), or 0 on a page without one. */
function fixedHeaderBottom(): number {
  let bottom = 0;
  for (const header of document.querySelectorAll('header')) {
    if (getComputedStyle(header).position === 'fixed')
      bottom = Math.max(bottom, header.getBoundingClientRect().bottom);
  }
  return bottom;
}

/**
 * Scrolls a failing field into view, its top 30 px below the fixed header (or the window's top
 * edge), and moves focus to it, so a screen reader reads its label and error. The margin is the
 * field's scroll margin, so a field inside a scrolling dialog lands the same way.
 */
export function focusField(field: HTMLElement) {
  scrollBelowHeader(field);
  field.focus({ preventScroll: true });
}

/** Scrolls a problem into view, its top 30 px below the fixed header, without moving focus (an alert is read anyway). */
export function scrollBelowHeader(element: HTMLElement) {
  element.style.scrollMarginTop = `${fixedHeaderBottom() + ERROR_SCROLL_OFFSET}px`;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  element.scrollIntoView({ block: 'start', behavior: reduceMotion ? 'auto' : 'smooth' });
}

/**
 * After a refused submit, moves focus to the first field marked invalid, scrolled into view 30 px
 * below the header, so a screen reader reads its label and error and a keyboard user lands where
 * the fix is needed.
 */
export function focusFirstInvalid(form: HTMLElement | null) {
  requestAnimationFrame(() => {
    const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) focusField(field);
  });
}
