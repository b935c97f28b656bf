import { Box, Container, Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { LogoMark } from './logo-mark';
import { SiteFooter } from './site-footer';

/**
 * The frame of the pages seen without signing in: sign-in, password recovery, public links. The
 * bank's mark and the portal's name head it.
 */
export function PublicShell({
  title,
  children,
  width = 460,
  brand = 'Client Portal',
}: {
  title: string;
  children: ReactNode;
  width?: number;
  /** The name above the title: the portal's, or "Back Office". */
  brand?: string;
}) {
  return (
    <Box component="main" mih="100vh" py={{ base: 'md', sm: 60 }} bg="gray.0">
      <Container size={width} px="md">
        <Group justify="center" gap={8} wrap="nowrap" mb={4}>
          <LogoMark size={32} />
          <Text fw={700} size="lg" c="blue.9">
            {brand}
          </Text>
        </Group>
        <Title order={1} ta="center" size="h2" mb="lg">
          {title}
        </Title>
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
          {children}
        </Paper>
        <SiteFooter />
      </Container>
    </Box>
  );
}
