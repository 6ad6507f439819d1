-- Orders imported from another platform (issue 31). An imported order keeps its source's order id
-- in its document (`imported.externalOrderId`, with the channel in `channelType`): this index makes
-- a second import of the same order (the same file twice, or two imports at once) find the first
-- instead of making a duplicate. Only imported orders carry the key, so the index stays small.
CREATE UNIQUE INDEX orders_by_external_id ON orders (site_id, (doc->>'channelType'), (doc#>>'{imported,externalOrderId}'))
  WHERE doc ? 'imported';
