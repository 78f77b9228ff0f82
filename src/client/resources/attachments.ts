/**
 * `/attachments`: upload a file to send with a message, read one back, remove one not sent yet.
 * Its own resource, so a widget bundle carries it only in its attachments add-on.
 *
 * Upload progress: `fetch` cannot report it, so `upload` with `onProgress` goes through
 * `XMLHttpRequest` in a browser (the client's own `fetch` everywhere else, and whenever the caller
 * gave one, which then reports only the end).
 */
import { interpretBody } from '../envelope.js';
import { segment, type HttpCore } from '../http.js';
import type { ApiResult, RequestOptions } from '../options.js';
import type { Attachment, UploadAttachmentQuery } from '../types.js';
import { responseHeaders } from '../xhr-headers.js';

/** Which visitor reads or removes a file (a widget token sets both). */
export interface AttachmentScope {
  user_id?: string;
  bot_id?: string;
}

export interface UploadOptions extends RequestOptions {
  /** Bytes sent so far of `total`, as the upload goes. */
  onProgress?: (sent: number, total: number) => void;
}

export class AttachmentsResource {
  constructor(private readonly core: HttpCore) {}

  /**
   * `POST /attachments`: stores `file` (its type is judged by its bytes) and answers its id, to send
   * in a message's `attachments`. 413 `payload_too_large` over the bot's size limit, 415
   * `unsupported_media_type` for a type it does not take.
   */
  async upload(file: Blob | ArrayBuffer | Uint8Array, query: UploadAttachmentQuery, options: UploadOptions = {}): Promise<ApiResult<Attachment>> {
    const { onProgress, ...rest } = options;
    const size = file instanceof Blob ? file.size : file.byteLength;
    const withXhr = onProgress && typeof XMLHttpRequest === 'function';
    const transport = withXhr ? (own: typeof fetch, custom: boolean) => (custom ? own : progressFetch(onProgress)) : undefined;
    const filename = query.filename ?? (typeof File === 'function' && file instanceof File ? file.name : undefined);
    const result = await this.core.request<Attachment>({ method: 'POST', path: '/attachments', query: { ...query, filename }, body: file }, { ...rest, transport });
    onProgress?.(size, size);
    return result;
  }

  /** `GET /attachments/{id}`: the file's bytes, as a `Blob` of its stored type. */
  download(id: string, scope: AttachmentScope = {}, options: RequestOptions = {}): Promise<Blob> {
    const spec = { method: 'GET' as const, path: `/attachments/${segment(id, 'id')}`, query: { ...scope } };
    return this.core.open(spec, options, '*/*', async (response, attempt) => {
      try {
        if (!response.ok) interpretBody(response, await response.text(), attempt.target); // throws the service's error
        return await response.blob();
      } finally {
        attempt.dispose();
      }
    });
  }

  /** `DELETE /attachments/{id}`: removes an upload not sent yet (409 once a message carries it). */
  delete(id: string, scope: AttachmentScope = {}, options?: RequestOptions): Promise<ApiResult<{ id: string; deleted: true }>> {
    return this.core.request({ method: 'DELETE', path: `/attachments/${segment(id, 'id')}`, query: { ...scope } }, options);
  }
}

/** `fetch` over `XMLHttpRequest`, for its upload progress events; failures reject as `fetch`'s do. */
function progressFetch(onProgress: (sent: number, total: number) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', String(input));
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded, event.total);
      xhr.onload = () => resolve(new Response(xhr.response as Blob, { status: xhr.status, statusText: xhr.statusText, headers: responseHeaders(xhr) }));
      xhr.onerror = () => reject(new TypeError('the upload failed'));
      xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
      init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(init.body as XMLHttpRequestBodyInit);
    });
}
