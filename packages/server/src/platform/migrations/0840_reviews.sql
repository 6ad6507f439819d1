-- Product reviews (@wix/reviews): one review per member per reviewed entity; a rating summary per
-- entity over its APPROVED reviews, changed in the same transaction as the review.
CREATE TABLE reviews (
  site_id           text NOT NULL,
  review_id         text NOT NULL,
  namespace         text NOT NULL,
  entity_id         text NOT NULL,
  author_kind       text NOT NULL CHECK (author_kind IN ('member', 'app')),
  author_id         text NOT NULL,
  author_name       text,
  title             text,
  body              text,
  media             jsonb NOT NULL DEFAULT '[]',
  rating            integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
  status            text NOT NULL CHECK (status IN ('APPROVED', 'IN_MODERATION', 'REJECTED')),
  manually_changed  boolean NOT NULL DEFAULT false,
  verified          boolean NOT NULL DEFAULT false,
  reply_message     text,
  reply_created_at  timestamptz,
  reply_updated_at  timestamptz,
  revision          bigint NOT NULL DEFAULT 1,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  PRIMARY KEY (site_id, review_id)
);
CREATE UNIQUE INDEX reviews_one_per_member ON reviews (site_id, namespace, entity_id, author_id) WHERE author_kind = 'member';
CREATE INDEX reviews_by_entity ON reviews (site_id, namespace, entity_id, created_at, review_id);

CREATE TABLE review_ratings (
  site_id     text NOT NULL,
  namespace   text NOT NULL,
  entity_id   text NOT NULL,
  count       integer NOT NULL CHECK (count >= 0),
  rating_sum  bigint NOT NULL CHECK (rating_sum >= 0),
  PRIMARY KEY (site_id, namespace, entity_id)
);
