/**
 * What one Product, one cart and one Order may hold (docs/decisions/030), shared by the admin
 * form, the cart, checkout and pages. Money columns are 32-bit integers on both engines
 * (PostgreSQL refuses more than 2,147,483,647; SQLite would take it), so the limits keep every
 * price, line total, subtotal, total and refund far below that, identically on both.
 */

/** The most of one Product a single cart line may hold, whatever the stock. */
export const MAX_LINE_QUANTITY = 99

/**
 * The most one Order may total, in minor units: 999,999.99 in a two-decimal currency. Also
 * the most a card provider takes in one payment (eight digits of minor units), so a larger
 * Order could not be paid anyway. A line total or subtotal is at most this; a refund at most
 * the total.
 */
export const MAX_ORDER_TOTAL_MINOR = 99_999_999

/** The highest price of one unit: no single unit may cost more than a whole Order may. */
export const MAX_UNIT_PRICE_MINOR = MAX_ORDER_TOTAL_MINOR

/** The most stock one Product may have on hand. */
export const MAX_STOCK = 999_999

/** The limits as the admin form words them (prices in two-decimal major units, as it takes them). */
export const LIMIT_TEXT = {
	unitPrice: (MAX_UNIT_PRICE_MINOR / 100).toLocaleString('en-US', { minimumFractionDigits: 2 }),
	stock: MAX_STOCK.toLocaleString('en-US'),
}

/** The field errors for a price or stock over its limit, the same from the form and the repository. */
export const LIMIT_ERRORS = {
	price: `Enter a price of at most ${LIMIT_TEXT.unitPrice}`,
	stock: `Enter a stock of at most ${LIMIT_TEXT.stock}`,
}

/** Whether a cart or Order of this subtotal may be placed. */
export const withinOrderLimit = (subtotalMinor: number) => Number.isSafeInteger(subtotalMinor) && subtotalMinor <= MAX_ORDER_TOTAL_MINOR

export const ORDER_LIMIT_MESSAGE = 'That is more than one order may total. Lower a quantity, or place the rest as a second order.'
