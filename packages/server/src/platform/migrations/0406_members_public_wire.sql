-- Each member's PUBLIC wire JSON (members/wire.ts toWireMember at level PUBLIC, as JSON.stringify
-- writes it, keys in the same order), kept by PostgreSQL on every insert and update of the row, so a
-- PUBLIC page is an index scan and a string_agg of ready texts: no escaping and no to_char per row
-- at read time. public-page.test.ts compares the text with the JS answer.
--
-- The functions are IMMUTABLE, as a generated column requires. They call to_json and to_char, which
-- PostgreSQL marks STABLE for settings this text does not depend on: dates are rendered in UTC with a
-- fixed numeric pattern (no TM, no locale), and no other setting enters.
-- The two functions that call the others keep the search_path they were made with, so that a
-- restore (which empties it) still finds them.
-- To change the text, replace the function and drop and re-add the column (PostgreSQL 15 cannot
-- change a generation expression in place).

-- A non-empty JSON string as JSON text, else NULL (store.ts `str`).
CREATE FUNCTION members_wire_text(value jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN jsonb_typeof(value) = 'string' AND value <> '""'::jsonb THEN value::text END $$;

-- A JSON number as JavaScript reads it (store.ts `num`), through float8, so 1.0 is written 1.
-- float8's text is JavaScript's for 0 and magnitudes from 1e-4 up to 1e15; members_public_wire
-- leaves a member with any other number to the JS path.
CREATE FUNCTION members_wire_number(value jsonb) RETURNS float8
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN jsonb_typeof(value) = 'number' THEN value::float8 END $$;

-- An image (store.ts `readImage`) as JSON text: only a non-empty object; its fields in wire order.
CREATE FUNCTION members_wire_image(image jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT
  AS $$ SELECT CASE WHEN jsonb_typeof(image) = 'object' AND image <> '{}'::jsonb THEN json_strip_nulls(json_build_object(
    'id', members_wire_text(image->'id')::json, 'url', members_wire_text(image->'url')::json,
    'height', members_wire_number(image->'height'), 'width', members_wire_number(image->'width'),
    'offsetX', members_wire_number(image->'offsetX'), 'offsetY', members_wire_number(image->'offsetY')))::text END $$;

-- Date.prototype.toISOString of the time truncated to the millisecond (what toMember reads).
CREATE FUNCTION members_wire_date(moment timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_char(moment AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

-- The PUBLIC wire member, or NULL when an image holds a number PostgreSQL would write unlike
-- JavaScript (or that JavaScript reads as Infinity): such a member's page is built in JS.
-- concat_ws leaves out the absent (NULL) profile fields as the JS answer omits them.
CREATE FUNCTION members_public_wire(member_id text, slug text, profile jsonb, created_at timestamptz, updated_at timestamptz)
  RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT
  AS $$ SELECT CASE
    WHEN profile ?| ARRAY['photo', 'cover'] AND (
      jsonb_path_exists(profile, '$.photo.* ? (@.type() == "number" && (@.abs() >= 1e15 || (@ != 0 && @.abs() < 0.0001)))')
      OR jsonb_path_exists(profile, '$.cover.* ? (@.type() == "number" && (@.abs() >= 1e15 || (@ != 0 && @.abs() < 0.0001)))'))
    THEN NULL
    ELSE '{"id":' || to_json(member_id)::text || ',"contactId":' || to_json(member_id)::text
      || ',"status":"UNKNOWN","privacyStatus":"UNKNOWN","activityStatus":"UNKNOWN","profile":{' || concat_ws(',',
        '"nickname":' || members_wire_text(profile->'nickname'), '"slug":' || to_json(slug)::text,
        '"photo":' || members_wire_image(profile->'photo'), '"cover":' || members_wire_image(profile->'cover'),
        '"title":' || members_wire_text(profile->'title'))
      || '},"createdDate":"' || members_wire_date(created_at) || '","updatedDate":"' || members_wire_date(updated_at) || '"}'
  END $$;

ALTER TABLE members ADD COLUMN public_wire text
  GENERATED ALWAYS AS (members_public_wire(member_id, slug, profile, created_at, updated_at)) STORED;
