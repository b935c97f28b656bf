import { Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled section of a client's record in the back office. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}
