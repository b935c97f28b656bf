/**
 * For a form's cross-field rules: run them even when a plain field failed too, so one answer
 * lists every problem (zod skips refinements after another issue by default).
 */
export const everyFieldAtOnce = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};
