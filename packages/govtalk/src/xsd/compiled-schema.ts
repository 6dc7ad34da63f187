import type { ErrorDetail } from "libxml2-wasm";

/** Result of validating one document against an XSD. */
export interface XsdValidationResult {
  valid: boolean;
  /** libxml2's messages, as xmllint prints them: "Schemas validity error : Element '{...}Name': [facet 'minLength'] ...". */
  errors: string[];
}

/** An XSD parsed and compiled once by libxml2, validating any number of documents. */
export interface CompiledSchema {
  /** Validates one document (synchronously: libxml2 runs in this thread's WebAssembly instance). */
  validate(xml: string): XsdValidationResult;
}

function messages(kind: string, details: readonly ErrorDetail[]): string[] {
  return details.map((detail) => `${kind} ${detail.level === 1 ? "warning" : "error"} : ${detail.message.trim()}`);
}

/**
 * Compiles an XSD with libxml2 (libxml2-wasm: libxml2 compiled to WebAssembly, the same schema
 * engine as the xmllint command line) and keeps it for every later validation. Neither the
 * schema nor the documents may reach the network (XML_PARSE_NONET); documents are parsed
 * without entity substitution or DTD loading.
 *
 * The library is loaded on first use, so importing this package costs nothing until a
 * validation is asked for.
 */
export async function compileSchema(xsd: string, schemaUrl: string): Promise<CompiledSchema> {
  const { ParseOption, XmlDocument, XmlParseError, XmlValidateError, XsdValidator } = await import("libxml2-wasm");
  const option = ParseOption.XML_PARSE_NONET;
  // The schema document stays allocated as long as the validator: libxml2's compiled schema
  // may point into the tree it was parsed from.
  const schemaDocument = XmlDocument.fromString(xsd, { url: schemaUrl, option });
  let validator: InstanceType<typeof XsdValidator>;
  try {
    validator = XsdValidator.fromDoc(schemaDocument);
  } catch (error) {
    schemaDocument.dispose();
    throw error;
  }
  return {
    validate(xml) {
      let document: InstanceType<typeof XmlDocument>;
      try {
        document = XmlDocument.fromString(xml, { option });
      } catch (error) {
        if (error instanceof XmlParseError) return { valid: false, errors: messages("parser", error.details) };
        throw error;
      }
      try {
        validator.validate(document);
        return { valid: true, errors: [] };
      } catch (error) {
        if (error instanceof XmlValidateError) return { valid: false, errors: messages("Schemas validity", error.details) };
        throw error;
      } finally {
        document.dispose();
      }
    },
  };
}
