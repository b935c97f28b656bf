/** Mantine's dimmed description grey is too light for small text on white (WCAG AA): use a darker one. */
export const readableDescription = { description: { color: 'var(--mantine-color-gray-7)' } } as const;
