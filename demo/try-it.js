// The try-it page: every control sets one attribute of the widget, and the markup shown under the
// controls follows. The settings are mirrored into the query string, so a configuration can be
// shared as a link (and the screenshot gallery opens the page that way).
const form = document.getElementById('controls');
const widget = document.getElementById('try-it-widget');
const markup = document.getElementById('markup');

/** Controls in the order their attributes appear in the markup. Booleans are checkboxes. */
const ATTRIBUTES = ['mode', 'open', 'theme', 'lang', 'dir', 'title', 'placeholder', 'welcome-message', 'stream', 'storage', 'no-feedback'];
/** Values left out of the query string because they are the page's starting point. */
const initial = new Map(ATTRIBUTES.map((name) => [name, valueOf(form.elements.namedItem(name))]));

function valueOf(control) {
  return control.type === 'checkbox' ? control.checked : control.value;
}

function setValue(control, value) {
  if (control.type === 'checkbox') control.checked = value !== null && value !== 'false';
  else if (control.tagName !== 'SELECT' || [...control.options].some((o) => o.value === value)) control.value = value;
}

/** Sets or removes each attribute from its control. Empty text removes the attribute. */
function apply() {
  for (const name of ATTRIBUTES) {
    const value = valueOf(form.elements.namedItem(name));
    if (value === true) widget.setAttribute(name, '');
    else if (value === false || value === '') widget.removeAttribute(name);
    else widget.setAttribute(name, value);
  }
  showMarkup();
  saveToUrl();
}

function escapeAttribute(value) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function showMarkup() {
  const lines = [...widget.attributes]
    .filter((attribute) => attribute.name !== 'id')
    .map((attribute) => (attribute.value === '' ? attribute.name : `${attribute.name}="${escapeAttribute(attribute.value)}"`));
  markup.textContent = `<ai-chat-widget\n  ${lines.join('\n  ')}\n></ai-chat-widget>`;
}

function saveToUrl() {
  const params = new URLSearchParams();
  for (const name of ATTRIBUTES) {
    const value = valueOf(form.elements.namedItem(name));
    if (value !== initial.get(name)) params.set(name, value === true ? '' : String(value));
  }
  const query = params.toString();
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
}

function loadFromUrl() {
  const params = new URLSearchParams(location.search);
  for (const name of ATTRIBUTES) {
    if (params.has(name)) setValue(form.elements.namedItem(name), params.get(name));
  }
}

form.addEventListener('input', (event) => {
  // Arabic reads right to left: follow the language unless the direction is picked by hand later
  if (event.target.name === 'lang') form.elements.namedItem('dir').value = event.target.value === 'ar' ? 'rtl' : '';
  apply();
});
form.addEventListener('submit', (event) => event.preventDefault());
document.getElementById('reset-conversation').addEventListener('click', () => widget.reset());
// the panel's own close button and Escape change `open` too: keep the checkbox truthful
for (const type of ['ai-chat-open', 'ai-chat-close']) {
  widget.addEventListener(type, () => {
    form.elements.namedItem('open').checked = type === 'ai-chat-open';
    showMarkup();
    saveToUrl();
  });
}

loadFromUrl();
apply();
