import type { NextFunction, Request, Response } from "express";

/**
 * No inline script or style, nothing from another origin, no framing, forms post only here (and,
 * with `contentSecurityPolicy(origins)`, redirect to the payment provider's checkout: Chromium
 * applies form-action to a form's redirect target too).
 */
export function contentSecurityPolicy(formActionOrigins: readonly string[] = []): string {
  return CSP_DIRECTIVES.map((directive) =>
    directive === "form-action 'self'" && formActionOrigins.length > 0 ? `${directive} ${formActionOrigins.join(" ")}` : directive,
  ).join("; ");
}

const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
];

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** The security headers of every response, with form-action also allowing these origins (the payment provider's checkout). */
export function securityHeadersFor(formActionOrigins: readonly string[]) {
  const policy = contentSecurityPolicy(formActionOrigins);
  return (req: Request, res: Response, next: NextFunction): void => applySecurityHeaders(policy, req, res, next);
}

/** The security headers of every response (pages, assets, errors). */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  applySecurityHeaders(CONTENT_SECURITY_POLICY, req, res, next);
}

function applySecurityHeaders(policy: string, _req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Content-Security-Policy", policy);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  next();
}
