import type { TestProject } from 'vitest/node';
import { prepareTemplate } from './test-database';

/** Once per project: its template database, named by the run and by the project's TEST_TEMPLATE. */
export default async function setup(project: TestProject) {
  process.env.TEST_RUN_ID ??= `${process.pid}`;
  return prepareTemplate(project.config.env?.TEST_TEMPLATE);
}
