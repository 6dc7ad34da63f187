import type { DownloadedDocument } from "@dormant/client";
import { DocumentType } from "@dormant/contracts";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, EmbeddedResource } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { jsonResult } from "../results.ts";
import { type ToolContext, runTool } from "./context.ts";

const filingId = z.string().min(1).max(128).describe("The filing's id (fil_...).");

export const getDocumentInput = z.strictObject({
  filing_id: filingId,
  type: DocumentType,
  part: z
    .union([z.literal(1), z.literal(2)])
    .optional()
    .describe("For a CT600 period split in two (period_split): 2 for the second return's document. Default 1."),
});

/** The document as an MCP embedded resource: a PDF as a base64 blob, XML and XHTML as text. */
export function documentResource(filingId: string, type: string, part: number | undefined, document: DownloadedDocument): EmbeddedResource {
  const uri = `dormant://filings/${encodeURIComponent(filingId)}/documents/${type}${part === 2 ? "?part=2" : ""}`;
  const isText = document.mediaType.includes("xml") || document.mediaType.startsWith("text/");
  return {
    type: "resource",
    resource: isText
      ? { uri, mimeType: document.mediaType, text: new TextDecoder().decode(document.bytes) }
      : { uri, mimeType: document.mediaType, blob: Buffer.from(document.bytes).toString("base64") },
  };
}

export function registerDocumentTools(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "list_documents",
    {
      title: "List a filing's documents",
      description:
        "The documents of an accepted filing: type, file name, size, when generated. A CT600 filing has ct600_pdf (the return as filed, with the authority's receipt) and ct600_xml (the message exactly as sent, password masked); an accounts filing has accounts_pdf and ixbrl_accounts. FILING_NOT_COMPLETE: the filing is not accepted (yet): call wait_for_filing first.",
      inputSchema: z.strictObject({ filing_id: filingId }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ filing_id }) => runTool(context, "list_documents", async () => jsonResult(await context.client.documents.list(filing_id))),
  );

  server.registerTool(
    "get_document",
    {
      title: "Download a filing's document",
      description:
        "Downloads one document of an accepted filing as an embedded resource: PDFs (ct600_pdf, accounts_pdf) as base64 with mimeType application/pdf, the XML and iXBRL (ct600_xml, ixbrl_accounts) as text. Use a type list_documents listed; part: 2 for the second return of a split CT600. DOCUMENT_NOT_FOUND: that type does not belong to this filing's type.",
      inputSchema: getDocumentInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ filing_id, type, part }) =>
      runTool(context, "get_document", async (): Promise<CallToolResult> => {
        const document = await context.client.documents.download(filing_id, type, part === undefined ? {} : { part });
        const summary = {
          filing_id,
          type,
          filename: document.filename,
          media_type: document.mediaType,
          size_bytes: document.bytes.byteLength,
        };
        return { content: [jsonResult(summary).content[0]!, documentResource(filing_id, type, part, document)] };
      }),
  );
}
