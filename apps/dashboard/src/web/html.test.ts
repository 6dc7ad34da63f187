import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "./html.ts";

describe("html template", () => {
  it("escapes every interpolated value, in text and in attributes", () => {
    const evil = `"'><script>alert(1)</script>&\``;
    expect(html`<p title="${evil}">${evil}</p>`.text).toBe(
      `<p title="&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#96;">&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#96;</p>`,
    );
  });

  it("keeps nested templates, joins arrays and renders nothing for null, undefined and false", () => {
    const items = ["a<b", "c"].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe("<ul><li>a&lt;b</li><li>c</li></ul>0");
  });

  it("treats a string that looks like HTML as text", () => {
    expect(escapeHtml("<b>")).toBe("&lt;b&gt;");
    expect(html`${"<b>bold</b>"}`.text).toBe("&lt;b&gt;bold&lt;/b&gt;");
  });
});
