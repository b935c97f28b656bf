-- The audit trail is append-only against TRUNCATE too (a statement, not rows: the row trigger of
-- 0011 never sees it). With the two roles of the README the app role cannot truncate at all; this
-- stops the owner as well, unless it drops the trigger first, on purpose.
CREATE OR REPLACE FUNCTION audit_events_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate
  BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_no_truncate();
