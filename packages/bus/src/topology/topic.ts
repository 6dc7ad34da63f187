/** Whether an AMQP topic binding pattern matches a routing key (`*` one word, `#` zero or more). */
export function topicMatches(pattern: string, routingKey: string): boolean {
  return matchWords(pattern.split("."), routingKey.split("."));
}

function matchWords(pattern: readonly string[], words: readonly string[]): boolean {
  const [head, ...rest] = pattern;
  if (head === undefined) return words.length === 0;
  if (head === "#") {
    for (let skip = 0; skip <= words.length; skip++) if (matchWords(rest, words.slice(skip))) return true;
    return false;
  }
  const [word, ...others] = words;
  if (word === undefined) return false;
  return (head === "*" || head === word) && matchWords(rest, others);
}
