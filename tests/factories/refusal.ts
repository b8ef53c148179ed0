import { AppError } from "#app/.server/errors.ts";

/** The AppError `work` is refused with (its code and status); fails the test when it is not refused. */
export async function refusal(work: () => unknown): Promise<{ code: string; status: number }> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.status };
    throw error;
  }
  throw new Error("não foi recusado");
}
