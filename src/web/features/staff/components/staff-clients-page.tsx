import { Alert, Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isoToUsDate } from '../../../../domain/dates';
import { ApiError } from '../../../lib/api-client';
import { useClientSearch } from '../api/search-clients';

/** Clients: search by Client ID, name, e-mail or date of birth. */
export function StaffClientsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const search = useClientSearch(q);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setParams(text.trim() ? { q: text.trim() } : {});
  };
  return (
    <Stack>
      <Title order={1} size="h2">
        Clients
      </Title>
      <form onSubmit={onSubmit} aria-label="Search clients">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Client ID, name, email or date of birth"
            name="q"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            style={{ flex: '1 1 240px' }}
          />
          <Button type="submit" loading={search.isFetching}>
            Search
          </Button>
        </Group>
      </form>
      {search.error && (
        <Alert color="red" role="alert">
          {search.error instanceof ApiError
            ? search.error.message
            : 'Something went wrong. Please try again.'}
        </Alert>
      )}
      {search.data && search.data.length === 0 && <Text role="status">No clients match.</Text>}
      {search.data && search.data.length > 0 && (
        <Table.ScrollContainer minWidth={520}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Client ID</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Date of birth</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {search.data.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/staff/clients/${c.clientACTId}`}>
                      {c.clientACTId}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {c.firstName} {c.lastName}
                  </Table.Td>
                  <Table.Td>{c.email}</Table.Td>
                  <Table.Td>{isoToUsDate(c.dateOfBirth)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
