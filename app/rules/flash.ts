/** A one-time notice after a save, as the root loader hands it over (app/security/flash.server.ts sets it). */
export type Flash = { kind: 'success' | 'info'; message: string }
