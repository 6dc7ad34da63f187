import { API_PREFIX } from "@dormant/contracts";
import express, { type Router } from "express";
import swaggerUi from "swagger-ui-express";
import { OPENAPI_PATH } from "../openapi/document.ts";

/** Swagger UI may load only its own assets and talk only to this origin. */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * `/docs`: Swagger UI over `/api/v1/openapi.json`, from the assets bundled in the swagger-ui-dist
 * package (no CDN, works offline). The online validator badge is off, so the page never calls
 * out. Mount at `/docs`.
 */
export function docsRouter(): Router {
  const options = {
    customSiteTitle: "Dormant Company Filing API",
    swaggerOptions: { url: `${API_PREFIX}${OPENAPI_PATH}`, validatorUrl: null, tryItOutEnabled: false },
  };
  const router = express.Router();
  router.use((req, res, next) => {
    res.setHeader("Content-Security-Policy", DOCS_CSP);
    res.setHeader("Cache-Control", "public, max-age=300");
    // The page loads its assets relative to itself: /docs must be /docs/.
    if (req.path === "/" && !req.originalUrl.split("?")[0]!.endsWith("/")) return res.redirect(301, `${req.baseUrl}/`);
    next();
  });
  router.use(swaggerUi.serveFiles(undefined, options), swaggerUi.setup(undefined, options));
  return router;
}
