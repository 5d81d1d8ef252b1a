/** Where the sign-in page sends a password sign-in that needs a code. Browser-safe. */
export const TWO_FACTOR_PATH = '/sign-in/two-factor'
