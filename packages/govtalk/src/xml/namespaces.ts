/** XML namespaces of the messages exchanged with the tax authority and the registry. */
export const NS = {
  /** GovTalk envelope (both authorities). */
  envelope: "http://www.govtalk.gov.uk/CM/envelope",
  /** CT600 return body (`IRenvelope`). */
  ct: "http://www.govtalk.gov.uk/taxation/CT/5",
  /** Tax success response body. */
  successResponse: "http://www.inlandrevenue.gov.uk/SuccessResponse",
  /** Tax itemised error response body. */
  errorResponse: "http://www.govtalk.gov.uk/CM/errorresponse",
  /** W3C XML signature (the IRmark receipt). */
  xmldsig: "http://www.w3.org/2000/09/xmldsig#",
  /** Registry `FormSubmission` body. */
  registryHeader: "http://xmlgw.companieshouse.gov.uk/Header",
  /** Registry `GetSubmissionStatus` request and `SubmissionStatus` answer bodies. */
  registry: "http://xmlgw.companieshouse.gov.uk",
  /** XML Schema instance (`xsi:schemaLocation`). */
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
  /** Reserved `xml:` prefix. */
  xml: "http://www.w3.org/XML/1998/namespace",
  /** Reserved `xmlns` attributes. */
  xmlns: "http://www.w3.org/2000/xmlns/",
} as const;
