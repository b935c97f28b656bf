-- get_Client's record (src/server/modules/clients/client-repository.ts, findClientRecord) in one
-- PL/pgSQL function: the function keeps its statement's plan for the connection's life, where a
-- statement sent from the app is planned on every call on PGlite (and its three-table plan cost
-- more than the read). Its columns are the record's, named as the repository reads them; a column
-- added to the record is a new migration replacing this function.
CREATE FUNCTION client_record(p_client_id uuid, p_today date) RETURNS SETOF json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT row_to_json(r) FROM (
    SELECT
      c.id AS "id",
      c.client_act_id AS "clientActId",
      c.first_name AS "firstName",
      c.last_name AS "lastName",
      c.date_of_birth AS "dateOfBirth",
      c.email AS "email",
      c.phone AS "phone",
      c.street AS "street",
      c.city AS "city",
      c.state AS "state",
      c.zip AS "zip",
      c.country AS "country",
      c.clinic_name AS "clinicName",
      c.preferred_address_contact_full_name AS "preferredAddressContactFullName",
      c.shipping_clinic_email AS "shippingClinicEmail",
      c.preferred_address_phone AS "preferredAddressPhone",
      c.preferred_address_street AS "preferredAddressStreet",
      c.preferred_address_city AS "preferredAddressCity",
      c.preferred_address_state AS "preferredAddressState",
      c.preferred_address_zip AS "preferredAddressZip",
      c.preferred_address_country AS "preferredAddressCountry",
      c.annual_storage_paid_until AS "annualStoragePaidUntil",
      c.longevity_vials_available AS "longevityVialsAvailable",
      c.bio_insurance_vials_available AS "bioInsuranceVialsAvailable",
      c.initial_processing_form_completed AS "initialProcessingFormCompleted",
      c.infectious_disease_form_completed AS "infectiousDiseaseFormCompleted",
      c.client_consent_form_completed AS "clientConsentFormCompleted",
      c.arb_subscribed AS "arbSubscribed",
      c.physician_form_agreement AS "physicianFormAgreement",
      c.date_banked_in AS "dateBankedIn",
      c.last_bio_insurance_purchased_date AS "lastBioInsurancePurchasedDate",
      -- The card on file, last 4 only.
      (SELECT pm.last4 FROM payment_methods pm
        WHERE pm.client_id = c.id AND pm.kind = 'card'
        ORDER BY pm.is_default DESC, pm.created_at DESC LIMIT 1) AS "cardLast4",
      -- Storage fees due before today and unpaid (due today is not yet overdue).
      (SELECT coalesce(sum(coalesce(f.ach_amount_cents, f.amount_cents)), 0) FROM annual_storage_fees f
        WHERE f.client_id = c.id AND f.paid_at IS NULL
          AND (f.status IN ('retrying', 'overdue') OR (f.status = 'noticed' AND f.due_date < p_today))) AS "overdueCents"
    FROM clients c
    WHERE c.id = p_client_id
  ) r;
END
$$;
