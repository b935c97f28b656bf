import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A spinner that says what it loads. It is an indeterminate progress bar to assistive technology:
 * Mantine's Loader is a bare span, on which an aria-label is prohibited (axe, serious).
 */
export function LoadingSpinner({
  label,
  ...props
}: Omit<LoaderProps, 'role' | 'aria-label'> & { label: string }) {
  return <Loader role="progressbar" aria-label={label} {...props} />;
}
