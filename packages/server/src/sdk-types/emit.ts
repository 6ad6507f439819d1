/**
 * JSON Schema (the TypeBox schemas of the routes) → TypeScript declarations for the SDK. A schema
 * with a `title` is a named type: declared once, referenced by name wherever it appears. Untitled
 * objects are written inline. `description`s become doc comments.
 */

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
}

/**
 * The SDK's form of an answer of generated-style modules (core/wire-keys.ts): system keys with an
 * underscore and these timestamps as `Date`. Back-office calls keep the wire form.
 */
export interface Form {
  rename: Record<string, string>;
  dates: ReadonlySet<string>;
}
export const WIRE_FORM: Form = { rename: {}, dates: new Set() };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A named type declared in another generated file (of the same form), which this file imports. */
export interface Elsewhere {
  /** The module to import it from (`./cart.js`). */
  from: string;
  schema: JsonSchema;
}

export class Emitter {
  private readonly declared = new Map<string, { schema: JsonSchema; text: string }>();
  private readonly order: string[] = [];
  /** Module → the names imported from it. */
  private readonly imports = new Map<string, Set<string>>();

  /** `elsewhere`: the named types earlier files declared, so each is declared once and imported. */
  constructor(private readonly form: Form = WIRE_FORM, private readonly elsewhere: ReadonlyMap<string, Elsewhere> = new Map()) {}

  /** Declares a named type (its `title`) and everything named it reaches; any JSON Schema object (TypeBox's). */
  declare(given: object): void {
    const schema: JsonSchema = given;
    const name = schema.title;
    if (!name) throw new Error('a declared schema needs a title');
    const other = this.elsewhere.get(name);
    const seen = this.declared.get(name) ?? other;
    if (seen) {
      if (JSON.stringify(strip(seen.schema)) !== JSON.stringify(strip(schema))) throw new Error(`two different schemas are titled ${name}`);
      if (other) this.imports.set(other.from, (this.imports.get(other.from) ?? new Set()).add(name));
      return;
    }
    this.declared.set(name, { schema, text: '' });
    const doc = comment(schema.description, '');
    const body = isObject(schema) ? `export interface ${name} ${this.objectBody(schema, '')}` : `export type ${name} = ${this.type(schema, '', false)};`;
    this.declared.set(name, { schema, text: doc + body });
    this.order.push(name);
  }

  /** The imports of types declared elsewhere, then the declarations in the order they were first reached. */
  text(): string {
    const imports = [...this.imports].map(([from, names]) => `import type { ${[...names].sort().join(', ')} } from '${from}';\n\n`);
    return imports.join('') + this.order.map((name) => this.declared.get(name)?.text).join('\n\n');
  }

  /** The named types this file declares, with their schemas, for the files after it. */
  declarations(from: string): Map<string, Elsewhere> {
    return new Map([...this.declared].map(([name, { schema }]) => [name, { from, schema }]));
  }

  private type(schema: JsonSchema, indent: string, useTitle = true): string {
    if (useTitle && schema.title) {
      this.declare(schema);
      return schema.title;
    }
    if (schema.const !== undefined) return literal(schema.const);
    if (schema.enum) return schema.enum.map(literal).join(' | ');
    if (schema.anyOf) return schema.anyOf.map((s) => this.type(s, indent)).join(' | ');
    if (Array.isArray(schema.type)) return schema.type.map((t) => this.type({ ...schema, type: t }, indent)).join(' | ');
    switch (schema.type) {
      case 'string': return 'string';
      case 'integer':
      case 'number': return 'number';
      case 'boolean': return 'boolean';
      case 'null': return 'null';
      case 'array': {
        const item = schema.items ? this.type(schema.items, indent) : 'unknown';
        return /[ |&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
      }
      case 'object': {
        const pattern = Object.values(schema.patternProperties ?? {})[0];
        if (pattern && !schema.properties) return `Record<string, ${this.type(pattern, indent)}>`;
        return this.objectBody(schema, indent);
      }
      default: return 'unknown';
    }
  }

  private objectBody(schema: JsonSchema, indent: string): string {
    const inner = `${indent}  `;
    const required = new Set(schema.required ?? []);
    const lines = Object.entries(schema.properties ?? {}).map(([wireName, property]) => {
      const name = this.form.rename[wireName] ?? wireName;
      const key = IDENTIFIER.test(name) ? name : literal(name);
      const type = this.form.dates.has(name) && property.type === 'string' ? 'Date' : this.type(property, inner);
      // A named type carries its own description.
      return `${property.title ? '' : comment(property.description, inner)}${inner}${key}${required.has(wireName) ? '' : '?'}: ${type};`;
    });
    if (schema.additionalProperties === true) lines.push(`${inner}[key: string]: unknown;`);
    return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
  }
}

/** A literal in the house style (single quotes). */
function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

function isObject(schema: JsonSchema): boolean {
  return schema.type === 'object' && !(schema.patternProperties && !schema.properties);
}

function comment(text: string | undefined, indent: string): string {
  if (!text) return '';
  return `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`;
}

/** A schema without its annotations, to tell two schemas of one title apart. */
function strip(schema: JsonSchema): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === 'description' ? undefined : value))) as unknown;
}
