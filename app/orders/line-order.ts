/**
 * An Order's lines in the order the cart held them, wherever they are listed (the Order page,
 * Store Admin, the mails). Checkout writes each line's `position`; a line written before that
 * column existed reads 0 and falls back to its id.
 */
export const ORDER_LINE_ORDER: Array<{ position: 'asc' } | { id: 'asc' }> = [{ position: 'asc' }, { id: 'asc' }]
