/**
 * Custom field definitions: the site's own (origin CUSTOM) beside built-in CONTACT and SYSTEM
 * fields, which are seeded on first use, keep their names and cannot be deleted. Values live on
 * members (contact.customFields) and are checked by custom-field-values.ts.
 */
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import { currentViewer, requireAdmin } from './actors.js';
import type { CustomFieldDefinition, CustomFieldType, FieldSection, FieldVisibility, SocialNetwork } from './model.js';
import { offsetMetadata, offsetPage, type OffsetMetadata } from './paging.js';
import type { CustomFieldInput } from './schemas.js';
import { slugify } from './slug.js';
import { toWireCustomField } from './social-wire.js';
import type { WireCustomField } from './social-wire-schemas.js';
import * as store from './store.js';

interface BuiltIn {
  key: string;
  name: string;
  fieldType: CustomFieldType;
  origin: 'CONTACT' | 'SYSTEM';
  section: FieldSection;
  visibility: FieldVisibility;
}

/** The member fields every site has; their values are the member's own fields, not custom values. */
export const BUILT_IN_FIELDS: readonly BuiltIn[] = [
  { key: 'firstName', name: 'First Name', fieldType: 'TEXT', origin: 'SYSTEM', section: 'GENERAL', visibility: 'PRIVATE' },
  { key: 'lastName', name: 'Last Name', fieldType: 'TEXT', origin: 'SYSTEM', section: 'GENERAL', visibility: 'PRIVATE' },
  { key: 'email', name: 'Email', fieldType: 'TEXT', origin: 'SYSTEM', section: 'GENERAL', visibility: 'PRIVATE' },
  { key: 'phone', name: 'Phone', fieldType: 'TEXT', origin: 'SYSTEM', section: 'GENERAL', visibility: 'PRIVATE' },
  { key: 'address', name: 'Address', fieldType: 'TEXT', origin: 'SYSTEM', section: 'ADDRESS', visibility: 'PRIVATE' },
  { key: 'title', name: 'Title', fieldType: 'TEXT', origin: 'SYSTEM', section: 'DISPLAY_INFO', visibility: 'PUBLIC' },
  { key: 'birthdate', name: 'Birth Date', fieldType: 'DATE', origin: 'CONTACT', section: 'GENERAL', visibility: 'PRIVATE' },
  { key: 'position', name: 'Position', fieldType: 'TEXT', origin: 'CONTACT', section: 'GENERAL', visibility: 'PRIVATE' },
  { key: 'company', name: 'Company', fieldType: 'TEXT', origin: 'CONTACT', section: 'GENERAL', visibility: 'PRIVATE' },
];

function revisionOf(value: string | number | undefined): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw ApiError.validation([{ field: 'revision', rule: 'REQUIRED_FIELD', description: 'the current revision is required' }]);
  }
  return n;
}

function notFound(fieldId: string): ApiError {
  return ApiError.notFound('CUSTOM_FIELD_NOT_FOUND', `No custom field ${fieldId}`, { fieldId });
}

function revisionMismatch(field: CustomFieldDefinition): ApiError {
  return new ApiError(409, 'REVISION_MISMATCH', 'The custom field changed since it was read', { fieldId: field.fieldId, revision: String(field.revision) });
}

export class CustomFieldsService {
  /** Every definition of the site (seeding the built-in ones on first use). */
  async definitions(ctx: SiteContext, now: Date): Promise<CustomFieldDefinition[]> {
    const fields = await store.listFields(ctx);
    if (fields.some((f) => f.origin !== 'CUSTOM')) return fields;
    await withTransaction(ctx, async (tx) => {
      for (const [position, builtIn] of BUILT_IN_FIELDS.entries()) {
        await store.insertField(tx, {
          ...builtIn, fieldId: newId(), socialType: null, position, hidden: false, revision: 1, createdAt: now, updatedAt: now,
        });
      }
    });
    return store.listFields(ctx);
  }

  async definitionsByKey(ctx: SiteContext, now: Date): Promise<Map<string, CustomFieldDefinition>> {
    return new Map((await this.definitions(ctx, now)).map((f) => [f.key, f]));
  }

  async create(ctx: RequestContext, input: CustomFieldInput): Promise<WireCustomField> {
    await requireAdmin(ctx);
    if (!input.name?.trim()) throw ApiError.validation([{ field: 'field.name', rule: 'REQUIRED_FIELD', description: 'a custom field needs a name' }]);
    const fieldType = input.fieldType ?? 'TEXT';
    const socialType = checkSocialType(fieldType, input.socialType);
    const now = ctx.now();
    await this.definitions(ctx, now);
    const base = `custom.${slugify(input.name) || 'field'}`;
    const field = await withTransaction(ctx, async (tx) => {
      const section: FieldSection = fieldType === 'SOCIAL' ? 'SOCIAL' : 'GENERAL';
      const position = await store.nextFieldPosition(tx, section);
      for (let attempt = 0; attempt < 20; attempt++) {
        const created = await store.insertField(tx, {
          fieldId: newId(),
          key: attempt === 0 ? base : `${base}-${attempt + 1}`,
          name: input.name!.trim(),
          fieldType,
          socialType,
          origin: 'CUSTOM',
          visibility: input.defaultPrivacy ?? 'PRIVATE',
          section,
          position,
          hidden: false,
          revision: 1,
          createdAt: now,
          updatedAt: now,
        });
        if (created) {
          await recordEvent(tx, { siteId: ctx.siteId, type: 'custom_field.created', entityType: 'custom_field', entityId: created.fieldId, payload: toWireCustomField(created) });
          return created;
        }
      }
      throw new ApiError(409, 'CUSTOM_FIELD_KEY_TAKEN', 'Too many custom fields share this name');
    });
    return toWireCustomField(field);
  }

  async get(ctx: RequestContext, fieldId: string): Promise<WireCustomField> {
    const viewer = await currentViewer(ctx);
    const now = ctx.now() ?? new Date();
    await this.definitions(ctx, now);
    const field = await store.findField(ctx, fieldId);
    if (!field || (viewer.kind !== 'ADMIN' && (field.visibility !== 'PUBLIC' || field.hidden))) throw notFound(fieldId);
    return toWireCustomField(field);
  }

  /** Admins see every definition; others the public, shown ones. */
  async list(ctx: RequestContext, paging: { limit?: unknown; offset?: unknown } | undefined): Promise<{ fields: WireCustomField[]; metadata: OffsetMetadata }> {
    const viewer = await currentViewer(ctx);
    const page = offsetPage(paging, 'paging', 1000);
    const all = await this.definitions(ctx, ctx.now() ?? new Date());
    const visible = viewer.kind === 'ADMIN' ? all : all.filter((f) => f.visibility === 'PUBLIC' && !f.hidden);
    const fields = visible.slice(page.offset, page.offset + page.limit);
    return { fields: fields.map(toWireCustomField), metadata: offsetMetadata(page, fields.length, visible.length) };
  }

  async update(ctx: RequestContext, fieldId: string, input: CustomFieldInput): Promise<WireCustomField> {
    await requireAdmin(ctx);
    const expected = revisionOf(input.revision);
    const now = ctx.now();
    await this.definitions(ctx, now);
    const field = await withTransaction(ctx, async (tx) => {
      const current = await store.findField(tx, fieldId, true);
      if (!current) throw notFound(fieldId);
      if (current.revision !== expected) throw revisionMismatch(current);
      if (input.fieldType !== undefined && input.fieldType !== current.fieldType) {
        throw new ApiError(400, 'INCORRECT_FIELD_TYPE', 'A custom field\'s type cannot change', { incorrectType: input.fieldType, correctType: current.fieldType });
      }
      const name = input.name?.trim();
      if (name !== undefined && name !== current.name && current.origin !== 'CUSTOM') {
        throw new ApiError(400, 'RESERVED_FIELD_NAME_NON_EDITABLE', 'A built-in field keeps its name', { newName: name, currentName: current.name });
      }
      const socialType = input.socialType === undefined ? current.socialType : checkSocialType(current.fieldType, input.socialType);
      const updated = await store.updateField(tx, {
        ...current,
        name: name || current.name,
        visibility: input.defaultPrivacy ?? current.visibility,
        socialType,
        updatedAt: now,
      }, expected);
      if (!updated) throw revisionMismatch(current);
      const payload: Record<string, unknown> = { field: toWireCustomField(updated) };
      if (updated.visibility !== current.visibility) payload.defaultPrivacyChanged = { fromPrivacy: current.visibility, toPrivacy: updated.visibility };
      await recordEvent(tx, { siteId: ctx.siteId, type: 'custom_field.updated', entityType: 'custom_field', entityId: fieldId, payload });
      return updated;
    });
    return toWireCustomField(field);
  }

  async delete(ctx: RequestContext, fieldId: string, revision: string | number | undefined): Promise<void> {
    await requireAdmin(ctx);
    const expected = revisionOf(revision);
    await withTransaction(ctx, async (tx) => {
      const current = await store.findField(tx, fieldId, true);
      if (!current) throw notFound(fieldId);
      if (current.origin !== 'CUSTOM') throw new ApiError(409, 'CUSTOM_FIELD_NOT_DELETABLE', 'A built-in field cannot be deleted; hide it instead', { fieldId });
      if (current.revision !== expected) throw revisionMismatch(current);
      const deleted = await store.deleteField(tx, fieldId, expected);
      if (!deleted) throw revisionMismatch(current);
      const cleared = await store.removeCustomFieldValues(tx, current.key, ctx.now());
      await recordEvent(tx, { siteId: ctx.siteId, type: 'custom_field.deleted', entityType: 'custom_field', entityId: fieldId, payload: { field: toWireCustomField(current), membersCleared: cleared } });
    });
  }

  /** Hidden fields stay defined (and their values kept) but are shown only to admins. */
  async hide(ctx: RequestContext, fieldId: string, revision: string | number | undefined): Promise<void> {
    await requireAdmin(ctx);
    const expected = revisionOf(revision);
    await withTransaction(ctx, async (tx) => {
      const current = await store.findField(tx, fieldId, true);
      if (!current) throw notFound(fieldId);
      if (current.revision !== expected) throw revisionMismatch(current);
      if (current.hidden) return;
      const updated = await store.updateField(tx, { ...current, hidden: true, updatedAt: ctx.now() }, expected);
      if (!updated) throw revisionMismatch(current);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'custom_field.hidden', entityType: 'custom_field', entityId: fieldId, payload: { field: toWireCustomField(updated) } });
    });
  }

  async reorder(ctx: RequestContext, fieldIds: string[], section: FieldSection | undefined): Promise<{ fields: WireCustomField[]; section: FieldSection }> {
    await requireAdmin(ctx);
    const now = ctx.now();
    const all = await this.definitions(ctx, now);
    if (new Set(fieldIds).size !== fieldIds.length) {
      throw ApiError.validation([{ field: 'fieldIds', rule: 'VALIDATION', description: 'must not repeat an id' }]);
    }
    const byId = new Map(all.map((f) => [f.fieldId, f]));
    const target = section ?? byId.get(fieldIds[0])?.section ?? 'GENERAL';
    fieldIds.forEach((id, i) => {
      const field = byId.get(id);
      if (!field) throw notFound(id);
      if (field.section !== target) {
        throw ApiError.validation([{ field: `fieldIds[${i}]`, rule: 'VALIDATION', description: `the field belongs to section ${field.section}, not ${target}` }]);
      }
    });
    const inSection = all.filter((f) => f.section === target).sort((a, b) => a.position - b.position);
    const order = [...fieldIds, ...inSection.map((f) => f.fieldId).filter((id) => !fieldIds.includes(id))];
    await withTransaction(ctx, async (tx) => {
      await store.setFieldPositions(tx, order, now);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'custom_field.reordered', entityType: 'custom_field', entityId: target, payload: { section: target, fieldIds: order } });
    });
    const fields = (await store.listFields(ctx)).filter((f) => f.section === target);
    return { fields: fields.map(toWireCustomField), section: target };
  }
}

function checkSocialType(fieldType: CustomFieldType, socialType: SocialNetwork | 'UNKNOWN' | undefined): SocialNetwork | null {
  if (fieldType === 'SOCIAL') {
    if (!socialType || socialType === 'UNKNOWN') {
      throw new ApiError(400, 'INVALID_FIELD_SOCIAL_TYPE', 'A SOCIAL field needs its network in socialType', { invalidSocialType: socialType ?? 'UNKNOWN' });
    }
    return socialType;
  }
  if (socialType && socialType !== 'UNKNOWN') {
    throw new ApiError(400, 'INVALID_FIELD_SOCIAL_TYPE', 'Only SOCIAL fields have a network', { invalidSocialType: socialType });
  }
  return null;
}
