import { describe, expect, it } from "vitest";
import { documentResource } from "./documents.ts";

describe("documentResource", () => {
  it("embeds a PDF as a base64 blob with its media type", () => {
    const bytes = new TextEncoder().encode("%PDF-1.7 ...");
    const resource = documentResource("fil_1", "ct600_pdf", undefined, { bytes, filename: "ct600.pdf", mediaType: "application/pdf" });
    expect(resource).toEqual({
      type: "resource",
      resource: {
        uri: "dormant://filings/fil_1/documents/ct600_pdf",
        mimeType: "application/pdf",
        blob: Buffer.from(bytes).toString("base64"),
      },
    });
  });

  it("embeds XML and iXBRL as text, naming the second part of a split CT600", () => {
    const bytes = new TextEncoder().encode("<GovTalkMessage/>");
    const resource = documentResource("fil_1", "ct600_xml", 2, { bytes, filename: "ct600-part2.xml", mediaType: "application/xml" });
    expect(resource.resource).toEqual({
      uri: "dormant://filings/fil_1/documents/ct600_xml?part=2",
      mimeType: "application/xml",
      text: "<GovTalkMessage/>",
    });
    const ixbrl = documentResource("fil_2", "ixbrl_accounts", undefined, {
      bytes,
      filename: "a.xhtml",
      mediaType: "application/xhtml+xml",
    });
    expect(ixbrl.resource).toHaveProperty("text");
  });
});
