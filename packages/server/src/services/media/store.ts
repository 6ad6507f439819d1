// SQL of uploaded pictures: every query takes the site from the context.
import type { SiteContext } from '../../platform/context.js';
import type { ImageType } from './sniff.js';

export interface MediaFile {
  hash: string;
  contentType: ImageType;
  width: number;
  height: number;
  sizeBytes: number;
  fileName: string;
  createdDate: Date;
}

interface MediaRow extends Record<string, unknown> {
  hash: string;
  content_type: string;
  width: number;
  height: number;
  size_bytes: string | number;
  file_name: string;
  created_at: Date | string;
}

const COLUMNS = 'hash, content_type, width, height, size_bytes, file_name, created_at';

const toFile = (r: MediaRow): MediaFile => ({
  hash: r.hash, contentType: r.content_type as ImageType, width: r.width, height: r.height,
  sizeBytes: Number(r.size_bytes), fileName: r.file_name, createdDate: new Date(r.created_at),
});

/** Records a picture; the same bytes uploaded again keep their first row. Returns whether it is new. */
export async function insertMediaFile(ctx: SiteContext, f: MediaFile): Promise<boolean> {
  const rows = await ctx.db.query(
    `INSERT INTO media_files (site_id, hash, content_type, width, height, size_bytes, file_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (site_id, hash) DO NOTHING RETURNING hash`,
    [ctx.siteId, f.hash, f.contentType, f.width, f.height, f.sizeBytes, f.fileName, f.createdDate],
  );
  return rows.length > 0;
}

export async function findMediaFile(ctx: SiteContext, hash: string): Promise<MediaFile | undefined> {
  const rows = await ctx.db.query<MediaRow>(`SELECT ${COLUMNS} FROM media_files WHERE site_id = $1 AND hash = $2`, [ctx.siteId, hash]);
  return rows[0] && toFile(rows[0]);
}
