/** The one error type of the SDK and the wire error shape it reads (wire-surface §1.7). */

export interface ApplicationError {
  /** A string code from the server (`WDE0073`, `-19995`, `OWNED_CART_NOT_FOUND`) or the HTTP status. */
  code: string | number;
  description: string;
  data?: unknown;
}

export interface FieldViolation {
  field: string;
  description: string;
  violatedRule?: string;
  ruleName?: string;
  data?: Record<string, unknown>;
}

export interface ErrorDetails {
  applicationError?: ApplicationError;
  validationError?: { fieldViolations: FieldViolation[] };
  requestId?: string;
}

export interface BodegaErrorInit {
  status?: number;
  requestId?: string;
  details?: ErrorDetails;
  code?: string | number;
  cause?: unknown;
}

export class BodegaError extends Error {
  override readonly name = 'BodegaError';
  /** HTTP status; undefined for client-side checks and network failures. */
  readonly status?: number;
  /** The server's `x-wix-request-id`. */
  readonly requestId?: string;
  readonly details: ErrorDetails;
  readonly code?: string | number;

  constructor(message: string, init: BodegaErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details ?? {};
    this.code = init.code ?? this.details.applicationError?.code;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builds the error for a non-200 answer. When the server sent neither an application nor a
 * validation error, an application error is synthesized from the message (code = HTTP status).
 */
export function errorFromResponse(
  status: number,
  statusText: string,
  requestId: string | undefined,
  body: unknown,
): BodegaError {
  const record = isRecord(body) ? body : undefined;
  const message =
    typeof record?.message === 'string' && record.message !== '' ? record.message : statusText || `HTTP ${status}`;
  const serverDetails = (isRecord(record?.details) ? record.details : {}) as ErrorDetails;
  const details: ErrorDetails = { ...serverDetails, requestId };
  if (!serverDetails.validationError && !serverDetails.applicationError) {
    details.applicationError = { code: status, description: message, data: { requestId, details: record ?? null } };
  }
  return new BodegaError(message, { status, requestId, details });
}
