/**
 * [R110] A shopper's search text (and Store Admin's, for customers) becomes a list of plain
 * words before it reaches either engine: letters and digits only, so nothing typed is ever read
 * as FTS5 or tsquery syntax (quotes, NEAR, `*`, `:`, `&`, `|`, `!`, parentheses are all
 * separators). Both engines then get the same question: every word, as a prefix, in the indexed
 * text (a Product's title or description, a customer's name or email).
 */
export const MAX_SEARCH_LENGTH = 200

/**
 * [R115] [R129] [R144] [R145] How many matches a Store Admin search (customers, guest buyers,
 * Orders, products) counts and lists at most, 50 pages: past it the admin is told there are more
 * and asked for another word, so a common word costs the same in a store of any size.
 */
export const ADMIN_SEARCH_CAP = 1000
const MAX_TERMS = 8
const MAX_TERM_LENGTH = 40

export function searchTerms(text: string): string[] {
	const words =
		text
			.normalize('NFKC')
			.toLowerCase()
			.match(/[\p{L}\p{N}]+/gu) ?? []
	return [...new Set(words.map((word) => [...word].slice(0, MAX_TERM_LENGTH).join('')))].slice(0, MAX_TERMS)
}

/** FTS5: each word a quoted phrase with a prefix star; phrases side by side must all match. */
export function fts5Query(terms: readonly string[]) {
	return terms.map((term) => `"${term}"*`).join(' ')
}

/** PostgreSQL to_tsquery: each word as a prefix (`:*`), all of them (`&`). */
export function tsQuery(terms: readonly string[]) {
	return terms.map((term) => `${term}:*`).join(' & ')
}
