import { Table, VisuallyHidden } from '@mantine/core';
import { screeningComparison } from '../../../../domain/infectious-disease';
import { usePriceBook } from '../../../lib/price-book';

/** White Glove Labs against a local lab, row by row. */
export function ScreeningComparison() {
  const book = usePriceBook();
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table withTableBorder withColumnBorders striped verticalSpacing="xs" fz="sm" captionSide="top">
        <Table.Caption c="gray.7">How the two screening routes compare</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <VisuallyHidden>Feature</VisuallyHidden>
            </Table.Th>
            <Table.Th scope="col">White Glove Labs</Table.Th>
            <Table.Th scope="col">Local Lab</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {screeningComparison(book).map((row) => (
            <Table.Tr key={row.feature}>
              <Table.Th scope="row">{row.feature}</Table.Th>
              <Table.Td>{row.whiteGlove}</Table.Td>
              <Table.Td>{row.localLab}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
