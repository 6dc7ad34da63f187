/** A well-formed registry company number: 8 upper-case letters or digits. */
export const COMPANY_NUMBER = /^[A-Z0-9]{8}$/;
