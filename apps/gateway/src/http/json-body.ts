import { AppError } from "@dormant/contracts";
import express, { type Request, type RequestHandler } from "express";

const JSON_TYPES = ["application/json", "application/*+json"];

function hasBody(req: Request): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && length !== "0";
}

/**
 * Reads a JSON body of at most `limitBytes` (larger: 413 PAYLOAD_TOO_LARGE; unparsable: 400
 * VALIDATION_ERROR; a body that is not JSON: 415 UNSUPPORTED_MEDIA_TYPE). Any JSON value is
 * parsed, so that the body's schema, not the parser, says what is wrong with `[]` or `"text"`.
 */
export function jsonBody({ limitBytes }: { limitBytes: number }): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json");
    }
    next();
  };
  return [requireJson, express.json({ limit: limitBytes, strict: false, type: JSON_TYPES })];
}

/** Body-parser failures (they carry a `type`) as the API's errors; never echoes the body. */
export function bodyParserError(error: unknown): AppError | undefined {
  if (typeof error !== "object" || error === null || !("type" in error)) return undefined;
  switch ((error as { type: unknown }).type) {
    case "entity.too.large":
      return new AppError("PAYLOAD_TOO_LARGE", "The request body is too large");
    case "entity.parse.failed":
      return new AppError("VALIDATION_ERROR", "The request body is not valid JSON", {
        details: [{ field: "body", message: "is not valid JSON" }],
      });
    case "encoding.unsupported":
    case "charset.unsupported":
      return new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as UTF-8 JSON");
    case "request.aborted":
    case "request.size.invalid":
    case "entity.verify.failed":
      return new AppError("VALIDATION_ERROR", "The request body could not be read", {
        details: [{ field: "body", message: "could not be read" }],
      });
    default:
      return undefined;
  }
}
