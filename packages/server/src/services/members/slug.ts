/** Member and badge slugs (pure): lower-case letters, digits and single inner dashes. */

export const SLUG_MAX_LENGTH = 100;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isValidSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX_LENGTH && SLUG.test(slug);
}

/** A slug built from free text ("Zoë O'Brien" → "zoe-obrien"); empty when nothing usable is left. */
export function slugify(text: string): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  return ascii
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH - 12)
    .replace(/-+$/g, '');
}

/** The slug a new member gets: from the nickname, else the e-mail's local part, else "member". */
export function baseSlug(nickname: string | undefined, loginEmail: string): string {
  return slugify(nickname ?? '') || slugify(loginEmail.split('@')[0]) || 'member';
}
