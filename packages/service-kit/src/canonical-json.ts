/**
 * JSON with object keys sorted at every depth, so that key order never changes the fingerprint:
 * `undefined` properties are left out, `undefined` array items are `null`. The gateway's sandbox
 * filing ids and stored idempotency fingerprints and the filing service's submit fingerprints are
 * hashes of this text, so it must never change, byte for byte (the gateway's fingerprint.test.ts
 * checks it against the first implementation for any value); it is written as loops over the keys
 * because it runs on every submit.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) {
    let text = "[";
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ",";
      // A hole of a sparse array stays empty, as Array.prototype.map left it.
      if (index in value) text += canonicalJson(value[index] === undefined ? null : value[index]);
    }
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = sortedKeys(object);
  let text = "{";
  for (const key of keys) {
    const item = object[key];
    if (item === undefined) continue;
    if (text.length > 1) text += ",";
    text += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${text}}`;
}

/**
 * Own enumerable string keys in code-unit order, as the first implementation sorted its entries
 * (keys are unique, so any correct sort gives the same order). Objects here have a handful of
 * keys: an insertion sort in place spares Array.prototype.sort's work copy.
 */
function sortedKeys(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}
