/**
 * The metric names a PromQL expression selects: what remains once strings, label matchers,
 * ranges, grouping label lists, modifiers and numbers are taken out, less function and
 * aggregation names (an identifier followed by "(") and keywords. `{__name__="x"}` selectors count.
 */
const KEYWORDS = new Set([
  "and",
  "or",
  "unless",
  "bool",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "offset",
  "inf",
  "nan",
]);

export function metricNamesOf(expr: string): string[] {
  const names = new Set<string>();
  for (const match of expr.matchAll(/__name__\s*=\s*"([a-zA-Z_:][a-zA-Z0-9_:]*)"/g)) names.add(match[1] as string);
  const stripped = expr
    .replace(/#[^\n]*/g, " ") // comments
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""') // strings (label values, regexes, label_replace arguments)
    .replace(/\{[^}]*\}/g, " ") // label matchers
    .replace(/\[[^\]]*\]/g, " ") // ranges and subqueries
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ") // grouping label lists
    .replace(/\boffset\s+-?[0-9a-z]+/g, " ") // offset 5m
    .replace(/@\s*(start\s*\(\s*\)|end\s*\(\s*\)|[0-9.]+)/g, " ") // @ modifier
    .replace(/(?<![a-zA-Z0-9_:.])(0x[0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)(?![a-zA-Z0-9_:])/g, " "); // numbers
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const name = match[0];
    const rest = stripped.slice((match.index ?? 0) + name.length);
    if (/^\s*\(/.test(rest)) continue; // a function or an aggregation
    if (KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names].sort();
}
