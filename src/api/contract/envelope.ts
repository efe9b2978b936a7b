// Envelopes vary across the real service ({message, payload}, {payload: {message, payload}}, flat bodies):
// unwrap defensively instead of assuming one shape (real-service-notes.md §1).

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The payload of a response: body.payload, one more level if that is itself {message, payload}, or the body itself. */
export function unwrapPayload(body: unknown): unknown {
  if (!isObject(body) || !('payload' in body)) return body;
  const payload = body.payload;
  if (isObject(payload) && 'payload' in payload && 'message' in payload) return payload.payload;
  return payload;
}
