import { AppError, type DocumentChunk } from "@dormant/contracts";

/**
 * A document's bytes from its first slice onwards, fetching each next slice only when the one
 * before has been taken: at most one slice is held at a time. Every slice must continue where the
 * last one ended and come from the same stored version (`total_bytes`, `generated_at`);
 * anything else ends the download with an error rather than splice two versions together.
 */
export async function* documentChunks(first: DocumentChunk, fetch: (offset: number) => Promise<DocumentChunk>): AsyncGenerator<Buffer> {
  let chunk = first;
  let offset = 0;
  for (;;) {
    if (chunk.offset !== offset || chunk.total_bytes !== first.total_bytes || chunk.generated_at !== first.generated_at) {
      throw new AppError("INTERNAL_ERROR", `The document ${first.file_name} changed while it was being downloaded`);
    }
    const bytes = Buffer.from(chunk.content_base64, "base64");
    offset += bytes.length;
    if (offset > first.total_bytes || (bytes.length === 0 && offset < first.total_bytes)) {
      throw new AppError("INTERNAL_ERROR", `The document ${first.file_name} did not have the ${first.total_bytes} bytes it announced`);
    }
    if (bytes.length > 0) yield bytes;
    if (offset === first.total_bytes) return;
    chunk = await fetch(offset);
  }
}
