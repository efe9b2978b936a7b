/** A LinkedIn profile URL as it is compared: no scheme, no www, no trailing slash, lower case. */
export function normaliseLinkedinUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

const linkedinHost = /^([a-z0-9-]+\.)*linkedin\.com$/;
/** A member's page: /in/<name> (and the older /pub/<name>/...). Company, school and post pages name nobody. */
const profilePath = /^\/(in|pub)\/[^/]+/i;

/**
 * Why a value is not a LinkedIn profile URL (https://www.linkedin.com/in/<name>, scheme and www optional), or
 * undefined when it is one: what enriching by LinkedIn URL needs, checked before anything is sent (credits).
 */
export function linkedinProfileProblem(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'empty';
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z\d+.-]*:/i.test(text) && !/^[^/:]+:\d/.test(text) ? text : `https://${text}`);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not an http(s) URL';
  if (!linkedinHost.test(url.hostname.toLowerCase())) return 'not on linkedin.com';
  if (url.username || url.password) return 'holds a user name or password';
  if (!profilePath.test(url.pathname)) return 'not a profile: the path must start /in/<name>';
  return undefined;
}
