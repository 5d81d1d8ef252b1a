/**
 * An Order's lines in the order the cart held them, wherever they are listed (the Order page,
 * Store Admin, the mails). Checkout writes each line's `position`; a line written before that
 * column existed reads 0 and falls back to its id.
 */
export const ORDER_LINE_ORDER: Array<{ position: 'asc' } | { id: 'asc' }> = [{ position: 'asc' }, { id: 'asc' }]

/**
 * A Customer's Orders, newest first: their account's list and the address offered at their next
 * checkout (Store Admin's customer page spells the same order, app/customers may not import this
 * domain). Two Orders placed in one millisecond share a `createdAt`: the later number, which the
 * Store's counter hands out in placement order, is the later Order.
 */
export const NEWEST_ORDERS_FIRST: Array<{ createdAt: 'desc' } | { number: 'desc' }> = [{ createdAt: 'desc' }, { number: 'desc' }]
