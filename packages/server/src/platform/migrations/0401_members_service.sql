-- The members service's own tables and indexes on the shared members table (0400).
-- Every key and index leads with site_id.

-- Member lists and queries: the public listing (approved, public members) and the fields the
-- official query builder filters and sorts by.
CREATE INDEX members_public_by_created ON members (site_id, created_at DESC, member_id DESC)
  WHERE status = 'APPROVED' AND privacy_status = 'PUBLIC';
CREATE INDEX members_by_created ON members (site_id, created_at DESC, member_id DESC);
-- Text sorts and $startsWith work on text folded to lower case in code point order
-- (lower(…) COLLATE "C"): one index serves both the prefix range and the order, on any database
-- collation. The nickname's folded form is a stored column, so a count of the public list by
-- nickname prefix is an index-only scan.
ALTER TABLE members ADD COLUMN nickname_key text COLLATE "C" GENERATED ALWAYS AS (lower(profile->>'nickname')) STORED;
CREATE INDEX members_nickname_key ON members (site_id, nickname_key, member_id);
CREATE INDEX members_public_nickname_key ON members (site_id, nickname_key, member_id)
  WHERE status = 'APPROVED' AND privacy_status = 'PUBLIC';
CREATE INDEX members_by_login_email ON members (site_id, (lower(login_email) COLLATE "C"), member_id);
CREATE INDEX members_by_role ON members (site_id, role) WHERE role <> 'MEMBER';

-- Custom field definitions. Values live in members.contact->'customFields' under `key`.
CREATE TABLE member_custom_fields (
  site_id      text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  field_id     text NOT NULL,
  key          text NOT NULL,
  name         text NOT NULL,
  field_type   text NOT NULL CHECK (field_type IN ('TEXT', 'NUMBER', 'DATE', 'URL', 'SOCIAL')),
  social_type  text CHECK (social_type IN ('FACEBOOK', 'INSTAGRAM', 'LINKEDIN', 'TWITTER', 'YOUTUBE', 'PINTEREST', 'TIKTOK',
                 'DEVIANTART', 'SOUNDCLOUD', 'TUMBLR', 'VIMEO', 'VKONTAKTE', 'ODNOKLASSNIKI', 'OTHER')),
  origin       text NOT NULL CHECK (origin IN ('CUSTOM', 'CONTACT', 'SYSTEM')),
  visibility   text NOT NULL CHECK (visibility IN ('PUBLIC', 'PRIVATE')),
  section      text NOT NULL CHECK (section IN ('GENERAL', 'SOCIAL', 'DISPLAY_INFO', 'ADDRESS')),
  position     integer NOT NULL,
  hidden       boolean NOT NULL DEFAULT false,
  revision     integer NOT NULL DEFAULT 1,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (site_id, field_id)
);
CREATE UNIQUE INDEX member_custom_fields_key ON member_custom_fields (site_id, key);

-- Badges and who holds them.
CREATE TABLE member_badges (
  site_id              text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  badge_id             text NOT NULL,
  title                text NOT NULL,
  description          text,
  slug                 text NOT NULL,
  background_color     text NOT NULL,
  text_color           text NOT NULL,
  icon                 text,
  permissions_enabled  boolean NOT NULL DEFAULT false,
  position             integer NOT NULL,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  PRIMARY KEY (site_id, badge_id)
);
CREATE UNIQUE INDEX member_badges_slug ON member_badges (site_id, slug);

CREATE TABLE member_badge_assignments (
  site_id      text NOT NULL,
  badge_id     text NOT NULL,
  member_id    text NOT NULL,
  assigned_at  timestamptz NOT NULL,
  PRIMARY KEY (site_id, badge_id, member_id)
);
CREATE INDEX member_badge_assignments_by_member ON member_badge_assignments (site_id, member_id);

-- follower_id follows member_id.
CREATE TABLE member_follows (
  site_id      text NOT NULL,
  follower_id  text NOT NULL,
  member_id    text NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (site_id, follower_id, member_id)
);
CREATE INDEX member_follows_following ON member_follows (site_id, follower_id, created_at DESC, member_id DESC);
CREATE INDEX member_follows_followers ON member_follows (site_id, member_id, created_at DESC, follower_id DESC);

-- Reports of one member by another; a report is open until reviewed or deleted.
CREATE TABLE member_reports (
  site_id              text NOT NULL,
  report_id            text NOT NULL,
  reported_member_id   text NOT NULL,
  reporting_member_id  text NOT NULL,
  category             text NOT NULL CHECK (category IN ('SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER')),
  description          text,
  created_at           timestamptz NOT NULL,
  reviewed_at          timestamptz,
  PRIMARY KEY (site_id, report_id)
);
-- One open report per reporter and reported member.
CREATE UNIQUE INDEX member_reports_one_open ON member_reports (site_id, reported_member_id, reporting_member_id)
  WHERE reviewed_at IS NULL;
CREATE INDEX member_reports_by_created ON member_reports (site_id, created_at DESC, report_id DESC);
CREATE INDEX member_reports_by_reporter ON member_reports (site_id, reporting_member_id);

-- A member's "about" section: one rich-content document per member.
CREATE TABLE member_abouts (
  site_id     text NOT NULL,
  about_id    text NOT NULL,
  member_id   text NOT NULL,
  revision    integer NOT NULL DEFAULT 1,
  content     jsonb NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (site_id, about_id)
);
CREATE UNIQUE INDEX member_abouts_by_member ON member_abouts (site_id, member_id);
