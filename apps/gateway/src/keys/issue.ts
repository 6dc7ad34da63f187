import type { Prisma } from "../generated/prisma/client.ts";
import { formatApiKey, generateApiKey } from "./format.ts";
import type { ApiKeyMode } from "./format.ts";
import type { SecretHasher } from "./hash.ts";

/**
 * Creates a key of `mode` for an account and returns it in full. This is the only moment the
 * secret exists outside the caller's hands: only its hash is stored.
 */
export async function issueApiKey(
  db: Prisma.TransactionClient,
  input: { accountId: string; mode: ApiKeyMode; name?: string | null },
  hasher: SecretHasher,
): Promise<{ keyId: string; apiKey: string }> {
  const key = generateApiKey(input.mode);
  await db.apiKey.create({
    data: {
      keyId: key.keyId,
      accountId: input.accountId,
      mode: input.mode,
      name: input.name ?? null,
      secretHash: hasher.hash(key.secret),
    },
  });
  return { keyId: key.keyId, apiKey: formatApiKey(key) };
}
