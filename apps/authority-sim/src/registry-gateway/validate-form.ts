import { isValidIsoDate } from "@dormant/company-data";
import {
  companyTypeForNumber,
  REGISTRY_ACCOUNTS_CLASS,
  REGISTRY_COMPANY_TYPES,
  REGISTRY_DOCUMENT_FILENAME_MAX_LENGTH,
  SUBMISSION_NUMBER_PATTERN,
  type GovTalkErrorInput,
  type RegistryFormSubmissionRequest,
  type XmlOutliner,
} from "@dormant/govtalk";
import { COMPANY_NUMBER } from "../company-number.ts";
import { ixbrlProblem } from "./ixbrl-document.ts";
import { REGISTRY_SIM_ERRORS } from "./registry-errors.ts";

/** A FormSubmission whose header and document passed the gateway's checks. */
export interface ValidForm {
  companyNumber: string;
  companyAuthCode: string;
  submissionNumber: string;
}

const AUTH_CODE = /^[A-Za-z0-9]{6}$/;
/** The Header namespace, then a location of the FormSubmission-v2-11 schema (v1-0 or v1-1 path, as published). */
const SCHEMA_LOCATION =
  /^\s*http:\/\/xmlgw\.companieshouse\.gov\.uk\/Header\s+http:\/\/xmlgw\.companieshouse\.gov\.uk\/v1-[01]\/schema\/forms\/FormSubmission-v2-11\.xsd\s*$/;

/** The gateway's synchronous checks of a FormSubmission; the first problem found, or the form. */
export function validateForm(
  request: RegistryFormSubmissionRequest,
  outline: XmlOutliner,
): { form: ValidForm } | { error: GovTalkErrorInput } {
  const invalid = (reason: string) => ({ error: REGISTRY_SIM_ERRORS.invalidRequest(reason) });
  const { form } = request;
  const { companyNumber, companyType, companyAuthCode, submissionNumber, document } = form;
  if (request.schemaLocation === undefined || !SCHEMA_LOCATION.test(request.schemaLocation)) {
    return {
      error: REGISTRY_SIM_ERRORS.invalidElement(
        "FormSubmission",
        "xsi:schemaLocation must name the Header namespace and FormSubmission-v2-11.xsd",
      ),
    };
  }
  if (!companyNumber || !COMPANY_NUMBER.test(companyNumber)) return invalid("CompanyNumber must be 8 upper-case letters or digits");
  if (!companyType || !(REGISTRY_COMPANY_TYPES as readonly string[]).includes(companyType)) {
    return invalid(`CompanyType must be one of ${REGISTRY_COMPANY_TYPES.join(", ")}`);
  }
  if (companyType !== companyTypeForNumber(companyNumber))
    return invalid(`CompanyType ${companyType} does not match company ${companyNumber}`);
  if (!form.companyName) return invalid("CompanyName is required");
  if (!companyAuthCode || !AUTH_CODE.test(companyAuthCode)) return invalid("CompanyAuthenticationCode must be exactly 6 letters or digits");
  if (!form.packageReference) return invalid("PackageReference is required");
  if (form.language !== "EN" && form.language !== "CY") return invalid("Language must be EN or CY");
  if (form.formIdentifier !== REGISTRY_ACCOUNTS_CLASS) return invalid(`FormIdentifier must be ${REGISTRY_ACCOUNTS_CLASS}`);
  if (!submissionNumber || !SUBMISSION_NUMBER_PATTERN.test(submissionNumber))
    return invalid("SubmissionNumber must be exactly 6 upper-case letters or digits");
  if (!form.dateSigned || !isValidIsoDate(form.dateSigned)) return invalid("DateSigned must be a date YYYY-MM-DD");
  if (document.category !== "ACCOUNTS") return invalid("Document/Category must be ACCOUNTS");
  if (!document.filename) return invalid("Document/Filename is required");
  if (document.filename.length > REGISTRY_DOCUMENT_FILENAME_MAX_LENGTH) {
    return {
      error: REGISTRY_SIM_ERRORS.invalidElement(
        "Filename",
        `at most ${REGISTRY_DOCUMENT_FILENAME_MAX_LENGTH} characters (FormSubmission-v2-11.xsd)`,
      ),
    };
  }
  if (!document.contentType) return invalid("Document/ContentType is required");
  if (document.date !== undefined && !isValidIsoDate(document.date)) return invalid("Document/Date must be a date YYYY-MM-DD");
  if (!document.bytes) return invalid("Document/Data must be base64");
  const problem = ixbrlProblem(document.bytes, companyNumber, outline);
  if (problem) return { error: REGISTRY_SIM_ERRORS.documentInvalid(problem) };
  return { form: { companyNumber, companyAuthCode, submissionNumber } };
}
