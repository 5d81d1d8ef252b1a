/** The states of a mail in the outbox, shared by the worker, Store Admin's page and its filter. */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number]
