import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One fact of a card that stands for a table row on a phone: the column's name and its value, as a
 * term and its description (inside a `<dl>`).
 */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Text component="dt" size="sm" c="gray.7" style={{ flexShrink: 0 }}>
        {term}:
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}
