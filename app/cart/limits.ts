/** The most of one Product a single cart line may hold, whatever the stock (shared with pages). */
export const MAX_LINE_QUANTITY = 99
