import * as z from 'zod/mini';
import { optional } from './schema.js';
import { endpoint } from './endpoint.js';

/** Sentiment arrives as a word or as "1"/"2"/"3" (Positive, Negative, Neutral). */
export const sentimentSchema = z.union([z.string(), z.number()]);

export const inboxCategorySchema = z.looseObject({
  key: z.string(),
  name: z.string(),
  isDefault: optional(z.boolean()),
  sentiment: optional(sentimentSchema),
});
export type InboxCategory = z.infer<typeof inboxCategorySchema>;

export const inboxEndpoints = {
  listCategories: endpoint({
    method: 'GET',
    path: '/v1/unibox/categories',
    replaySafe: true,
    response: z.looseObject({ message: optional(z.string()), payload: z.array(inboxCategorySchema) }),
  }),
};

const sentimentNames: Record<string, string> = { '1': 'Positive', '2': 'Negative', '3': 'Neutral' };

export function sentimentName(value: string | number | undefined): string {
  if (value === undefined || value === null) return '';
  const text = String(value).trim();
  if (sentimentNames[text]) return sentimentNames[text];
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}
