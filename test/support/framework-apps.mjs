// Test-only: builds the framework test apps (test/frameworks/build-apps.mjs) the first time a page
// under /test/frameworks/dist/ is requested, then lets the dev server serve the built files. Runs
// that never load those pages never pay for the build; every run that does builds fresh.
/** @returns {import('koa').Middleware} */
export function frameworkApps() {
  let built;
  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path.startsWith('/test/frameworks/dist/')) {
      built ??= import('../frameworks/build-apps.mjs').then((m) => m.buildApps());
      try {
        await built;
      } catch (error) {
        ctx.status = 500;
        ctx.type = 'text/plain';
        ctx.body = `building the framework test apps failed: ${error?.message ?? error}`;
        return;
      }
    }
    return next();
  };
}
