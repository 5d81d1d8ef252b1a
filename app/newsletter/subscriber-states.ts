/** The states of a newsletter address, shared by Store Admin's list, its filter and the export. */
export const SUBSCRIBER_STATES = ['confirmed', 'pending', 'unsubscribed'] as const
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number]
