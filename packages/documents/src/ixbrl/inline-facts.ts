import { longDate } from "./long-date.ts";
import { el, type Child, type ElementNode } from "./markup.ts";
import { formatPounds, groupThousands, type MoneyDecimals } from "./money.ts";
import { FORMAT, REGISTRY_IDENTIFIER_SCHEME, UNIT, type UnitId } from "./taxonomy.ts";

export interface ExplicitMember {
  readonly dimension: string;
  readonly member: string;
}

export type Period = { readonly instant: string } | { readonly startDate: string; readonly endDate: string };

export interface ContextDefinition {
  readonly id: string;
  readonly period: Period;
  readonly members: readonly ExplicitMember[];
}

function sameContext(a: ContextDefinition, b: ContextDefinition): boolean {
  return JSON.stringify([a.period, a.members]) === JSON.stringify([b.period, b.members]);
}

/**
 * Creates the `ix:nonNumeric` / `ix:nonFraction` elements of one document and remembers which
 * contexts and units they use, so that `ix:resources` declares exactly those: every fact's
 * `contextRef` and `unitRef` resolves and nothing is declared that is not used. The same concept in
 * the same context may be tagged more than once only with the same value.
 */
export class InlineFacts {
  private readonly contexts = new Map<string, ContextDefinition>();
  private readonly units = new Set<UnitId>();
  private readonly values = new Map<string, string>();

  constructor(private readonly companyNumber: string) {}

  /** Text shown as is. */
  text(name: string, context: ContextDefinition, text: string): ElementNode {
    return this.nonNumeric(name, context, text, {}, text);
  }

  /** A fact whose meaning lies in its context's dimension member; it has no content. */
  empty(name: string, context: ContextDefinition): ElementNode {
    return this.nonNumeric(name, context, "", {});
  }

  /** A date, shown as `31 March 2026`, valued `2026-03-31`. */
  date(name: string, context: ContextDefinition, isoDate: string): ElementNode {
    return this.nonNumeric(name, context, isoDate, { format: FORMAT.dateDayMonthNameYearEn }, longDate(isoDate));
  }

  /** A boolean in `ix:hidden`, shown as its lexical value. */
  boolean(name: string, context: ContextDefinition, value: boolean): ElementNode {
    return this.nonNumeric(name, context, String(value), {}, String(value));
  }

  /**
   * An amount of money given in pence, shown in pounds without a sign (the caller brackets
   * negatives) and tagged `sign="-"` when negative; zero is shown as a dash (`ixt:fixed-zero`).
   */
  money(name: string, context: ContextDefinition, pence: number, decimals: MoneyDecimals): ElementNode {
    const value = pence === 0 ? "0" : `${pence < 0 ? "-" : ""}${formatPounds(pence, decimals).replaceAll(",", "")}`;
    return this.nonFraction(name, context, "GBP", value, {
      decimals: String(decimals),
      format: pence === 0 ? FORMAT.fixedZero : FORMAT.numDotDecimal,
      sign: pence < 0 ? "-" : undefined,
      shown: pence === 0 ? "-" : formatPounds(pence, decimals),
    });
  }

  /** A whole count such as a number of employees. */
  count(name: string, context: ContextDefinition, count: number): ElementNode {
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`${name} must be a non-negative integer`);
    return this.nonFraction(name, context, "pure", String(count), {
      decimals: "0",
      format: FORMAT.numDotDecimal,
      sign: undefined,
      shown: groupThousands(count),
    });
  }

  /**
   * The `xbrli:context` and `xbrli:unit` declarations of everything tagged so far: plain contexts
   * first, then dimensional ones, each group in id order.
   */
  resources(): ElementNode[] {
    const contexts = [...this.contexts.values()]
      .sort((a, b) => a.members.length - b.members.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((context) => this.contextElement(context));
    const units = (Object.keys(UNIT) as UnitId[])
      .filter((unit) => this.units.has(unit))
      .map((unit) => el("xbrli:unit", { id: unit }, el("xbrli:measure", {}, UNIT[unit])));
    return [...contexts, ...units];
  }

  private nonNumeric(
    name: string,
    context: ContextDefinition,
    value: string,
    attributes: { readonly format?: string },
    shown?: Child,
  ): ElementNode {
    this.record(name, context, undefined, value);
    return el("ix:nonNumeric", { name, contextRef: context.id, format: attributes.format }, shown);
  }

  private nonFraction(
    name: string,
    context: ContextDefinition,
    unit: UnitId,
    value: string,
    attributes: { readonly decimals: string; readonly format: string; readonly sign: "-" | undefined; readonly shown: string },
  ): ElementNode {
    this.record(name, context, unit, value);
    this.units.add(unit);
    const { decimals, format, sign, shown } = attributes;
    return el("ix:nonFraction", { name, contextRef: context.id, unitRef: unit, decimals, format, sign }, shown);
  }

  private record(name: string, context: ContextDefinition, unit: UnitId | undefined, value: string): void {
    const known = this.contexts.get(context.id);
    if (known !== undefined && !sameContext(known, context)) {
      throw new Error(`Context id ${context.id} is used for two different contexts`);
    }
    this.contexts.set(context.id, context);
    const key = `${name}|${context.id}|${unit ?? ""}`;
    const previous = this.values.get(key);
    if (previous !== undefined && previous !== value) {
      throw new Error(`${name} in context ${context.id} is tagged with two different values (${previous} and ${value})`);
    }
    this.values.set(key, value);
  }

  private contextElement(context: ContextDefinition): ElementNode {
    const segment =
      context.members.length === 0
        ? undefined
        : el(
            "xbrli:segment",
            {},
            context.members.map(({ dimension, member }) => el("xbrldi:explicitMember", { dimension }, member)),
          );
    const period =
      "instant" in context.period
        ? el("xbrli:period", {}, el("xbrli:instant", {}, context.period.instant))
        : el("xbrli:period", {}, el("xbrli:startDate", {}, context.period.startDate), el("xbrli:endDate", {}, context.period.endDate));
    return el(
      "xbrli:context",
      { id: context.id },
      el("xbrli:entity", {}, el("xbrli:identifier", { scheme: REGISTRY_IDENTIFIER_SCHEME }, this.companyNumber), segment),
      period,
    );
  }
}
