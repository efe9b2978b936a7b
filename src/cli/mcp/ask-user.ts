// Asking the client's user before a guarded action acts, where the client can (elicitation); never depended on: a
// client that cannot ask gets the two-call token guard alone. On the 2026-07-28 protocol the question goes back as an
// input_required result and the answer comes with the retried call; on a 2025 connection it is a request to the client.
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AskUser } from './call.js';

const userConfirms = z.object({ confirm: z.boolean().describe('do it') });

/** How to ask this call's user, or undefined when their client cannot. */
export function askUserFor(server: McpServer, extra: ServerContext): AskUser | undefined {
  const envelope = extra.mcpReq.envelope as Record<string, { elicitation?: unknown } | undefined> | undefined;
  if (envelope?.[CLIENT_CAPABILITIES_META_KEY]?.elicitation !== undefined)
    return async (question) => {
      const responses = extra.mcpReq.inputResponses;
      if (inputResponse(responses, 'confirm').kind === 'missing')
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: question, requestedSchema: userConfirms }) },
        });
      return acceptedContent(responses, 'confirm', userConfirms)?.confirm === true ? 'yes' : 'declined';
    };
  if (envelope === undefined && server.server.getClientCapabilities()?.elicitation !== undefined)
    return async (question) => {
      const answer = await extra.mcpReq.elicitInput({
        mode: 'form',
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', description: 'do it' } },
          required: ['confirm'],
        },
      });
      return answer.action === 'accept' && answer.content?.confirm === true ? 'yes' : 'declined';
    };
  return undefined;
}
