-- Site members: one per identity (member_id = identity_id). The identity service creates the row
-- and keeps status and role; the members service builds on these columns (migrations 0401+).
CREATE TABLE members (
  site_id          text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  member_id        text NOT NULL,
  login_email      text NOT NULL,
  status           text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE')),
  role             text NOT NULL DEFAULT 'MEMBER' CHECK (role IN ('MEMBER', 'CONTRIBUTOR', 'OWNER')),
  privacy_status   text NOT NULL DEFAULT 'PRIVATE' CHECK (privacy_status IN ('PRIVATE', 'PUBLIC')),
  activity_status  text NOT NULL DEFAULT 'ACTIVE' CHECK (activity_status IN ('ACTIVE', 'MUTED')),
  slug             text NOT NULL,
  -- Wire shapes of the members API: profile {nickname, firstName, lastName, photo, title, …},
  -- contact {firstName, lastName, emails, phones, addresses, company, jobTitle, birthdate, customFields}.
  profile          jsonb NOT NULL DEFAULT '{}'::jsonb,
  contact          jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  last_login_at    timestamptz,
  PRIMARY KEY (site_id, member_id)
);
CREATE UNIQUE INDEX members_slug ON members (site_id, slug);
CREATE INDEX members_login_email ON members (site_id, lower(login_email));
CREATE INDEX members_by_status ON members (site_id, status, created_at);
