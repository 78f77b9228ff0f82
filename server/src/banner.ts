/** The rows of the banner `npm start` prints: every value starts in one column, after the longest label. */
const LABEL_WIDTH = 'Dashboard: '.length;

/** `  Label:    value`; an empty label continues the row above. */
export function bannerRow(label: string, value: string): string {
  return `  ${(label ? `${label}:` : '').padEnd(LABEL_WIDTH)}${value}`;
}
