/** The Store Admin account the end-to-end server's init creates (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN_EMAIL = 'store-admin@e2e.example.com'
export const ADMIN_PASSWORD = 'e2e-Admin-pass-7f3c9a21d4'
