import { Box, Container, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer';

/** The frame of the pages seen without signing in: sign-in, password recovery, public links. */
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
        <Text ta="center" fw={700} size="lg" c="blue.9" mb={4}>
          {brand}
        </Text>
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
