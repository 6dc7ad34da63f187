import { GovTalkXmlError } from "../errors.ts";

/**
 * A message serialised once with placeholder tokens where its variable values go; `fill` writes
 * the values over the tokens. For messages that differ only in a few identifiers (a poll's
 * CorrelationID, a status request's TransactionID and SubmissionNumber), building and serialising
 * the whole tree for every message cost far more than the exchange itself.
 *
 * The values written must need no escaping in XML text (callers check them against patterns of
 * letters and digits first), and each token must occur exactly once in the serialised text:
 * checked when the template is made, so the filled text is byte for byte what serialising the
 * tree with those values gives.
 */
export class MessageTemplate<K extends string> {
  private readonly parts: string[];
  private readonly order: K[];

  constructor(serialised: string, tokens: Record<K, string>) {
    const found = (Object.entries(tokens) as [K, string][]).map(([key, token]) => {
      const at = serialised.indexOf(token);
      if (at < 0 || serialised.indexOf(token, at + 1) >= 0)
        throw new GovTalkXmlError(`message template: the ${key} placeholder must occur exactly once`);
      return { key, token, at };
    });
    found.sort((a, b) => a.at - b.at);
    this.parts = [];
    this.order = [];
    let from = 0;
    for (const { key, token, at } of found) {
      this.parts.push(serialised.slice(from, at));
      this.order.push(key);
      from = at + token.length;
    }
    this.parts.push(serialised.slice(from));
  }

  /** The message with `values` in place of the tokens (values already checked: no escaping is done). */
  fill(values: Record<K, string>): string {
    let text = this.parts[0]!;
    for (let i = 0; i < this.order.length; i += 1) text += values[this.order[i]!] + this.parts[i + 1]!;
    return text;
  }
}
