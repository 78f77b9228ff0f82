/**
 * Tells a widget token from an API key in `Authorization: Bearer …`: a token the service minted
 * (widget-tokens/) is a JWT, three base64url parts with a JSON header (`eyJ…`); keys start `aicw_sk_`.
 */
const JWT = /^Bearer[ ]+(eyJ[\w-]{1,1000}\.[\w-]{1,4000}\.[\w-]{1,200})[ ]*$/i;

/** The widget token of an `Authorization` header, if it carries one. */
export function widgetBearer(authorization: string | undefined): string | undefined {
  return JWT.exec(authorization ?? '')?.[1];
}
