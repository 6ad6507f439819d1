/**
 * The collection page's two forms, pure: a data item's values (one text per field, checked by the
 * field's type) and the fields table (keys, names and types, within the server's own limits from
 * `@bodega/sdk`'s DATA_* values).
 */
import { z } from 'zod';
import {
  DATA_COLLECTION_LIMITS, DATA_FIELD_KEY_PATTERN, DATA_FIELD_TYPES, DATA_SYSTEM_FIELD_KEYS, type DataCollection, type DataCollectionInput, type DataField, type DataItem,
} from '@bodega/sdk';

export type FieldType = (typeof DATA_FIELD_TYPES)[number];
export interface FieldDef { key: string; displayName?: string; type: FieldType }

/** The types the fields table offers; a field of another type (a reference …) keeps its own. */
export const OFFERED_TYPES: readonly FieldType[] = ['TEXT', 'NUMBER', 'BOOLEAN', 'DATETIME', 'URL', 'RICH_TEXT', 'IMAGE', 'ARRAY', 'OBJECT'];

/** The collection's own fields (not the system ones), as the pages show them. */
export function fieldsOf(c: DataCollection | undefined): FieldDef[] {
  return (c?.fields ?? []).filter((f) => !f.systemField).map((f) => ({
    key: f.key, ...(typeof f.displayName === 'string' && { displayName: f.displayName }), type: f.type,
  }));
}

/** A value as the item table and editor show it. */
export function show(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A shown value back to the item's value (empty: no value); the item schema has checked it. */
export function parse(type: string, text: string): unknown {
  if (text === '') return undefined;
  if (type === 'NUMBER') return Number(text);
  if (type === 'BOOLEAN') return text === 'true';
  if (type === 'ARRAY' || type === 'OBJECT') return JSON.parse(text) as unknown;
  return text;
}

function valueProblem(type: FieldType, text: string): string | undefined {
  if (text === '') return undefined;
  if (type === 'NUMBER') return text.trim() !== '' && Number.isFinite(Number(text)) ? undefined : 'Enter a number';
  if (type === 'BOOLEAN') return text === 'true' || text === 'false' ? undefined : 'Choose yes or no';
  if (type !== 'ARRAY' && type !== 'OBJECT') return undefined;
  const wanted = type === 'ARRAY' ? 'Enter a JSON list, like ["a", "b"]' : 'Enter a JSON object, like {"size": 2}';
  try {
    const value = JSON.parse(text) as unknown;
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    return (type === 'ARRAY' ? Array.isArray(value) : isObject) ? undefined : wanted;
  } catch {
    return wanted;
  }
}

/** The item editor's form: `values[i]` is the text of `fields[i]`. */
export function itemSchema(fields: readonly FieldDef[]) {
  return z.object({ values: z.array(z.string()) }).superRefine(({ values }, ctx) => {
    fields.forEach((field, i) => {
      const problem = valueProblem(field.type, values[i] ?? '');
      if (problem) ctx.addIssue({ code: 'custom', path: ['values', i], message: problem });
    });
  });
}
export type ItemForm = z.infer<ReturnType<typeof itemSchema>>;

export const itemForm = (fields: readonly FieldDef[], item: DataItem | undefined): ItemForm => ({ values: fields.map((f) => show(item?.[f.key])) });

/** The item with the form's values on its fields (its other keys kept). */
export function itemOf(fields: readonly FieldDef[], item: DataItem | undefined, form: ItemForm): DataItem {
  const data: DataItem = { ...(item ?? {}) };
  fields.forEach((f, i) => { data[f.key] = parse(f.type, form.values[i] ?? ''); });
  return data;
}

const KEY = new RegExp(DATA_FIELD_KEY_PATTERN);
const SYSTEM_KEYS: readonly string[] = DATA_SYSTEM_FIELD_KEYS;

/** The fields table: the system fields are sent as they are and count towards the server's limit. */
export const fieldsSchema = z.object({
  fields: z.array(z.object({
    key: z.string().trim()
      .min(1, 'Give the field a key')
      .regex(KEY, 'Letters, digits, _, $ and -, at most 128, starting with a letter, a digit or _')
      .refine((key) => !SYSTEM_KEYS.includes(key), 'A system field has this key'),
    displayName: z.string().trim(),
    type: z.enum(DATA_FIELD_TYPES),
  })).max(DATA_COLLECTION_LIMITS.fields - SYSTEM_KEYS.length, `At most ${DATA_COLLECTION_LIMITS.fields - SYSTEM_KEYS.length} fields`)
    .superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((f, i) => {
        if (seen.has(f.key.trim())) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: 'Another field has this key' });
        seen.add(f.key.trim());
      });
    }),
});
export type FieldsForm = z.infer<typeof fieldsSchema>;

export const fieldsForm = (collection: DataCollection): FieldsForm => ({
  fields: fieldsOf(collection).map((f) => ({ key: f.key, displayName: f.displayName ?? '', type: f.type })),
});

/**
 * The collection's `fields` after the table was saved: the system fields, then each row — a field
 * that keeps its key keeps what the table does not show (a reference's typeMetadata …).
 */
export function fieldsOfForm(collection: DataCollection, form: FieldsForm): DataCollectionInput['fields'] {
  const system = collection.fields.filter((f) => f.systemField);
  const before = new Map<string, DataField>(collection.fields.map((f) => [f.key, f]));
  return [...system, ...form.fields.map((f) => ({ ...before.get(f.key), key: f.key, displayName: f.displayName || f.key, type: f.type }))];
}
