import { timestamp } from 'drizzle-orm/pg-core';

/** When a row was written: every table's `created_at`. */
export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
