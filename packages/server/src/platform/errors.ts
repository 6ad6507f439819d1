import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The spec's server validation rule names (spec §5). */
export type ViolatedRule =
  | 'VALIDATION' | 'OTHER' | 'MAX' | 'MIN' | 'MAX_LENGTH' | 'MIN_LENGTH' | 'MAX_SIZE' | 'MIN_SIZE'
  | 'FORMAT' | 'DECIMAL_LTE' | 'DECIMAL_GTE' | 'DECIMAL_LT' | 'DECIMAL_GT' | 'DECIMAL_MAX_SCALE'
  | 'INVALID_ENUM_VALUE' | 'REQUIRED_FIELD' | 'FIELD_NOT_ALLOWED' | 'ONE_OF_ALIGNMENT'
  | 'EXACT_LENGTH' | 'EXACT_SIZE' | 'REQUIRED_ONE_OF_FIELD';

export interface FieldViolation {
  field: string;
  description: string;
  rule: ViolatedRule;
  data?: Record<string, unknown>;
}

export interface ApplicationErrorBody {
  message: string;
  details: { applicationError: { code: string; description: string; data: Record<string, unknown> } };
}

export interface ValidationErrorBody {
  message: string;
  details: {
    validationError: {
      fieldViolations: { field: string; description: string; violatedRule: ViolatedRule; data: Record<string, unknown> }[];
    };
  };
}

/** The one error type of the server: every failure a caller sees is one of these. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly violations?: FieldViolation[],
    /** A description different from the message, e.g. the data store's human sentence. */
    readonly description: string = message,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static validation(violations: FieldViolation[], message?: string): ApiError {
    const text = message ?? violations.map((v) => `${v.field}: ${v.description}`).join('; ');
    return new ApiError(400, 'INVALID_ARGUMENT', text, {}, violations);
  }

  static unauthenticated(message = 'Missing or invalid credentials'): ApiError {
    return new ApiError(401, 'UNAUTHENTICATED', message);
  }

  static forbidden(message = 'The caller may not perform this operation'): ApiError {
    return new ApiError(403, 'PERMISSION_DENIED', message);
  }

  static notFound(code: string, message: string, data: Record<string, unknown> = {}): ApiError {
    return new ApiError(404, code, message, data);
  }

  toBody(): ApplicationErrorBody | ValidationErrorBody {
    if (this.violations) {
      return {
        message: this.message,
        details: {
          validationError: {
            fieldViolations: this.violations.map((v) => ({
              field: v.field,
              description: v.description,
              violatedRule: v.rule,
              data: v.data ?? {},
            })),
          },
        },
      };
    }
    return {
      message: this.message,
      details: { applicationError: { code: this.code, description: this.description, data: this.data } },
    };
  }
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const RULE_BY_KEYWORD: Record<string, ViolatedRule> = {
  required: 'REQUIRED_FIELD',
  minimum: 'MIN',
  exclusiveMinimum: 'MIN',
  maximum: 'MAX',
  exclusiveMaximum: 'MAX',
  minLength: 'MIN_LENGTH',
  maxLength: 'MAX_LENGTH',
  minItems: 'MIN_SIZE',
  maxItems: 'MAX_SIZE',
  minProperties: 'MIN_SIZE',
  maxProperties: 'MAX_SIZE',
  enum: 'INVALID_ENUM_VALUE',
  const: 'INVALID_ENUM_VALUE',
  format: 'FORMAT',
  pattern: 'FORMAT',
  additionalProperties: 'FIELD_NOT_ALLOWED',
  type: 'VALIDATION',
  anyOf: 'ONE_OF_ALIGNMENT',
  oneOf: 'ONE_OF_ALIGNMENT',
};

/** Turns Ajv's schema errors into the spec's field violations (`lineItems[0].quantity`). */
export function violationsFromSchema(errors: AjvError[], context: string): FieldViolation[] {
  return errors.map((e) => {
    const segments = e.instancePath.split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') segments.push(e.params.missingProperty);
    if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string') {
      segments.push(e.params.additionalProperty);
    }
    const field = segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');
    const data: Record<string, unknown> = {};
    if (typeof e.params.limit === 'number') data.threshold = e.params.limit;
    if (Array.isArray(e.params.allowedValues)) data.allowedValues = e.params.allowedValues;
    if (typeof e.params.type === 'string') data.type = e.params.type;
    return {
      field: field || context,
      description: e.message ?? 'is invalid',
      rule: RULE_BY_KEYWORD[e.keyword] ?? 'VALIDATION',
      data,
    };
  });
}

const FRAMEWORK_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: 'The request body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Payload is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'INVALID_CONTENT_LENGTH', message: 'Content-Length does not match the body' },
  FST_ERR_BAD_URL: { status: 400, code: 'BAD_URL', message: 'The URL is malformed' },
};

/** Maps anything thrown to an ApiError; unknown errors become a 500 that reveals nothing. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fe = error as Partial<FastifyError> & { validation?: AjvError[]; validationContext?: string };
  if (fe && Array.isArray(fe.validation)) {
    return ApiError.validation(violationsFromSchema(fe.validation, fe.validationContext ?? 'body'));
  }
  // A value PostgreSQL refuses (SQLSTATE class 22: bad text, out-of-range number or date) is the
  // caller's input, whichever service let it through: a 400, never a 500.
  if (fe && typeof fe.code === 'string' && /^22[0-9A-Z]{3}$/.test(fe.code)) {
    return new ApiError(400, 'INVALID_VALUE', 'A value in the request cannot be stored or compared');
  }
  const known = fe?.code ? FRAMEWORK_CODES[fe.code] : undefined;
  if (known) return new ApiError(known.status, known.code, known.message);
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError(fe.statusCode, fe.code ?? 'BAD_REQUEST', fe.message ?? 'Bad request');
  }
  return new ApiError(500, 'INTERNAL_ERROR', 'Internal error');
}

/** Given the chance to answer an unmatched request first (the web app's client-side routes). */
export type NotFoundFallback = (req: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

export function registerErrorHandling(app: FastifyInstance, fallback?: NotFoundFallback): void {
  app.setErrorHandler((error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) req.log.error({ err: error }, 'unhandled error');
    return reply.status(apiError.status).send(apiError.toBody());
  });
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) => {
    const handled = fallback?.(req, reply);
    if (handled) return handled;
    const apiError = new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.url.split('?')[0]}`);
    return reply.status(404).send(apiError.toBody());
  });
}
