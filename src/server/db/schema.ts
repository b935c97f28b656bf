/**
 * Every table of the database, each re-exported from the schema file of the module that owns it
 * (src/server/modules/<module>/schema.ts; the platform's in ./system-schema.ts). drizzle-kit
 * reads the schema here and ./client.ts types the database with it. Outside its owner's folder a
 * table is not imported from here but reached through its owner's functions
 * (scripts/check-boundaries.ts).
 */
export * from '../modules/auth/schema';
export * from '../modules/clients/schema';
export * from '../modules/forms/schema';
export * from '../modules/initial-processing/schema';
export * from '../modules/newborn-agreement/schema';
export * from '../modules/ordering/schema';
export * from '../modules/payments/schema';
export * from '../modules/physicians/schema';
export * from '../modules/prices/schema';
export * from '../modules/staff/schema';
export * from './system-schema';
