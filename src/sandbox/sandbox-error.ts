// An error answer of the sandbox: {error: true, type, code, message}, the body spec.md gives.
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly type = 'general',
  ) {
    super(message);
  }

  toBody(): { error: true; type: string; code: number; message: string } {
    return { error: true, type: this.type, code: this.code, message: this.message };
  }
}

export const badRequest = (message: string, code = 4000) => new SandboxError(400, code, message);
