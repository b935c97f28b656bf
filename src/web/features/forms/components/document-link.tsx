import { Anchor } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';

/** A signed document or upload, served to its owner only by the server. */
export function DocumentLink({ documentId, children }: { documentId: string; children: string }) {
  return (
    <Anchor
      href={`/api/pay/documents/${encodeURIComponent(documentId)}`}
      download
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}
    >
      <IconDownload size={16} aria-hidden />
      {children}
    </Anchor>
  );
}
