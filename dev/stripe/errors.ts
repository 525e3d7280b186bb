// Stripe-shaped API errors: the official client turns these bodies into its typed errors.
/** The client turns each into its own error class (idempotency_error → StripeIdempotencyError). */
type StripeErrorType = "invalid_request_error" | "api_error" | "idempotency_error";

export class StripeApiError extends Error {
  readonly status: number;
  readonly type: StripeErrorType;
  readonly code: string | undefined;
  readonly param: string | undefined;

  constructor(
    status: number,
    message: string,
    type: StripeErrorType = "invalid_request_error",
    code?: string,
    param?: string,
  ) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = param;
  }

  toJSON() {
    return {
      error: {
        message: this.message,
        type: this.type,
        ...(this.code !== undefined && {
          code: this.code,
          doc_url: `https://stripe.com/docs/error-codes/${this.code.replaceAll("_", "-")}`,
        }),
        ...(this.param !== undefined && { param: this.param }),
      },
    };
  }
}

export const missing = (param: string) =>
  new StripeApiError(400, `Missing required param: ${param}.`, "invalid_request_error", "parameter_missing", param);
export const invalid = (param: string, message: string) =>
  new StripeApiError(400, message, "invalid_request_error", "parameter_invalid_integer", param);
export const noSuch = (kind: string, id: string, param = "id") =>
  new StripeApiError(404, `No such ${kind}: '${id}'`, "invalid_request_error", "resource_missing", param);
