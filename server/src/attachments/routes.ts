/**
 * `/v1/attachments`: upload a file (the raw request body; `POST`), read one (`GET`, the bytes with
 * the headers of file-headers.ts), remove one not sent yet (`DELETE`). Also reached through a widget
 * token (src/proxy/policy.ts forces `user_id` and `bot_id`) and the dashboard's passthrough (an
 * operator's files, by `conversation_id`).
 */
import { Hono } from 'hono';
import type { UploadAttachmentQuery } from '../../../src/client/types.ts';
import { clientAddress } from '../http/client-ip.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readQuery } from '../http/validate.ts';
import type { AttachmentService, FileReader } from './service.ts';
import type { ServiceConfig } from '../config.ts';
import { fileHeaders } from './file-headers.ts';
import { readQuerySchema, uploadQuerySchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface AttachmentRouteDeps {
  config: Pick<ServiceConfig, 'trustedProxies'>;
  attachments: AttachmentService;
}

type ReadQuery = { user_id?: string; bot_id?: string };

const readerOf = (query: ReadQuery): FileReader => ({ userId: query.user_id, botId: query.bot_id });

/** The path of uploads on either /v1 mount: their body limit is the attachment limit (app.ts). */
export function isAttachmentUploadPath(path: string): boolean {
  return /\/v1\/attachments\/?$/.test(path);
}

export function attachmentRoutes(deps: AttachmentRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const attachmentId = (c: AppContext) => pathId(c, 'attachment_id', 'att', 'attachment');

  router.post('/', async (c) => {
    const query = readQuery<UploadAttachmentQuery>(c, uploadQuerySchema);
    // the body is the file, whatever its declared type: the service judges it by its bytes
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const attachment = await deps.attachments.upload(accountId(c), {
      botId: query.bot_id,
      conversationId: query.conversation_id,
      userId: query.user_id,
      filename: query.filename,
      clientIp: clientAddress(c.req.raw.headers, c.env, deps.config.trustedProxies),
      bytes,
    });
    return ok(c, attachment, 201);
  });

  router.get('/:attachment_id', async (c) => {
    const reader = readerOf(readQuery<ReadQuery>(c, readQuerySchema));
    const file = await deps.attachments.read(accountId(c), attachmentId(c), reader);
    const headers = fileHeaders({ content_type: file.content_type, filename: file.filename, size: file.size });
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return c.body(new Uint8Array(file.data.buffer, file.data.byteOffset, file.data.byteLength) as Uint8Array<ArrayBuffer>, 200);
  });

  router.delete('/:attachment_id', async (c) => {
    const id = attachmentId(c);
    await deps.attachments.remove(accountId(c), id, readerOf(readQuery<ReadQuery>(c, readQuerySchema)));
    return ok(c, { id, deleted: true });
  });
  return router;
}
