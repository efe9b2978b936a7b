/** A LinkedIn profile URL as it is compared: no scheme, no www, no trailing slash, lower case. */
export function normaliseLinkedinUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}
