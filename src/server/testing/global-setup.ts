import { prepareTemplate } from './test-database';

export default async function setup() {
  process.env.TEST_RUN_ID ??= `${process.pid}`;
  return prepareTemplate();
}
