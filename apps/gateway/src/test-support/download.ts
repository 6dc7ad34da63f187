import type { Express } from "express";
import request from "supertest";

/** Collects a response body as raw bytes, whatever its media type (supertest would parse XML as text). */
function rawBody(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  stream.on("end", () => callback(null, Buffer.concat(chunks)));
  stream.on("error", (error: Error) => callback(error, Buffer.alloc(0)));
}

/** GET a document download with a key; `body` is the file's bytes (or the error envelope's JSON). */
export async function download(app: Express, path: string, apiKey: string) {
  const response = await request(app).get(`/api/v1${path}`).set("X-API-Key", apiKey).buffer(true).parse(rawBody);
  const bytes = response.body as Buffer;
  const isJson = String(response.headers["content-type"] ?? "").startsWith("application/json");
  return { status: response.status, headers: response.headers, bytes, json: isJson ? JSON.parse(bytes.toString("utf8")) : undefined };
}
