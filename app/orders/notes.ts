/** Internal notes on an Order: for the shop's people only, never shown to the customer. */
export const NOTE_MAX = 1000
