/** `GET /v1/openapi.json`: the OpenAPI 3.1 document of the v1 surface (public, still rate-limited). */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { buildOpenApiDocument } from './document.ts';

export function openapiRoutes(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  // Built once: the document is static for the life of the process.
  const document = buildOpenApiDocument();
  const body = JSON.stringify(document);
  router.get('/openapi.json', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(body, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
  return router;
}
