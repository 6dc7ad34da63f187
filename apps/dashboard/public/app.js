// The dashboard's only client script (served from /assets, no inline script anywhere): the
// "Copy" button of a new key's or webhook endpoint's secret (the text of an element, or the value
// of a read-only field). Everything else works without script.

document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-copy-target]") : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute("data-copy-target") || "");
  const status = document.getElementById("copy-status");
  if (!source) return;
  const isField = source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement;
  const text = isField ? source.value : source.textContent || "";
  try {
    await navigator.clipboard.writeText(text);
    if (status) status.textContent = "Copied to the clipboard.";
  } catch {
    if (isField) {
      source.focus();
      source.select();
      if (status) status.textContent = "Selected: press Ctrl+C (or Cmd+C) to copy.";
      return;
    }
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    if (status) status.textContent = "Selected: press Ctrl+C (or Cmd+C) to copy.";
  }
});
