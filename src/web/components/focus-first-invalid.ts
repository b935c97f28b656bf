/**
 * After a refused submit, moves focus to the first field marked invalid, so a screen reader reads
 * its label and error and a keyboard user lands where the fix is needed.
 */
export function focusFirstInvalid(form: HTMLElement | null) {
  requestAnimationFrame(() => {
    const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    field?.focus();
  });
}
