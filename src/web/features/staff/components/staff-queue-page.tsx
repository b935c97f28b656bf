import { Alert, Anchor } from '@mantine/core';
import { Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { queuePages } from './queue-pages';

/** `/staff/queues/:key`: the page of one work queue. */
export function StaffQueuePage() {
  const { key = '' } = useParams();
  const queue = Object.hasOwn(queuePages, key) ? queuePages[key] : undefined;
  if (!queue) {
    return (
      <Alert color="red" role="alert">
        There is no such work queue.{' '}
        <Anchor component={Link} to="/staff/home">
          Back to Home
        </Anchor>
      </Alert>
    );
  }
  return (
    <Suspense fallback={<LoadingSpinner label="Loading" />}>
      <queue.Page />
    </Suspense>
  );
}
