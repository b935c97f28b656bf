import { Box, SimpleGrid, Text } from '@mantine/core';

/** Read-only details as label and value pairs (a description list). */
export function ReadOnlyFacts({ facts }: { facts: Array<{ label: string; value: string }> }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs" m={0}>
      {facts.map((fact) => (
        <Box key={fact.label}>
          <Text component="dt" size="sm" fw={600}>
            {fact.label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {fact.value || 'Not on file'}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}
