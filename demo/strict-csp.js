// Records every Content-Security-Policy violation of the page on `window.__cspViolations` and shows
// the count. Loaded before the widget, so nothing the widget does can slip past it.
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push({
    directive: event.effectiveDirective,
    blocked: event.blockedURI,
    sample: event.sample,
    source: event.sourceFile,
  });
  const counter = document.getElementById('csp-violations');
  if (counter) counter.textContent = String(window.__cspViolations.length);
});
