/**
 * Keyset pages for the lists that only grow (Store Admin's Orders and activity): a page is the
 * rows just older than a row's key, or just newer, read through the list's index from that key,
 * so a page deep in the list costs what the first one does. OFFSET would walk every row it skips.
 */

/** Where a page starts: older than `before`, newer than `after`, or the newest page. */
export type Cursor = { before: string } | { after: string } | null

/** A page, newest first, with the keys its "Newer" and "Older" links carry (null: no link). */
export type KeysetPage<T> = { rows: T[]; newer: string | null; older: string | null }

/**
 * One page of `size` rows. `read` returns up to `take` rows from `from` (exclusive) in the
 * direction asked: newest first for `older`, oldest first for `newer`, the newest page when
 * `from` is null; `keyOf` is a row's key as the cursor carries it. One row more than the page
 * says whether there is another page that way. A "Newer" page that reaches the top of the list
 * is the newest page itself, so the first page always holds `size` rows.
 */
export async function keysetPage<T>({
	cursor,
	size,
	read,
	keyOf,
}: {
	cursor: Cursor
	size: number
	read(from: string | null, direction: 'older' | 'newer', take: number): Promise<T[]>
	keyOf(row: T): string
}): Promise<KeysetPage<T>> {
	if (cursor && 'after' in cursor) {
		const newer = await read(cursor.after, 'newer', size + 1)
		if (newer.length > size) {
			const rows = newer.slice(0, size).reverse()
			return { rows, newer: keyOf(rows[0]!), older: keyOf(rows.at(-1)!) }
		}
		return keysetPage({ cursor: null, size, read, keyOf })
	}
	const from = cursor?.before ?? null
	const older = await read(from, 'older', size + 1)
	const rows = older.slice(0, size)
	return {
		rows,
		// Past the end of the list the page is empty: "Newer" leads back from the key asked for.
		newer: from === null ? null : rows[0] ? keyOf(rows[0]) : from,
		older: older.length > size ? keyOf(rows.at(-1)!) : null,
	}
}

/** The key of a row listed by time, newest first, ties broken by id: `<ms since 1970>.<id>`. */
export const TIME_CURSOR = /^\d{1,15}\.[A-Za-z0-9_-]{1,64}$/

export function timeKey(at: Date, id: string) {
	return `${at.getTime()}.${id}`
}

/**
 * The rows beyond a time key, for a list ordered by (`field`, id) newest first: at or before the
 * time, and past the id among rows of that very time. The range on the time starts the index
 * walk at the key; only the rows of one millisecond are checked by id.
 */
export function beyondTimeKey<F extends string>(field: F, key: string, direction: 'older' | 'newer') {
	const dot = key.indexOf('.')
	const at = new Date(Number(key.slice(0, dot)))
	const id = key.slice(dot + 1)
	const [within, past] = direction === 'older' ? (['lte', 'lt'] as const) : (['gte', 'gt'] as const)
	return { [field]: { [within]: at }, OR: [{ [field]: { [past]: at } }, { id: { [past]: id } }] } as Record<F, { lte?: Date; gte?: Date }> & {
		OR: Array<Record<string, { lt?: Date | string; gt?: Date | string }>>
	}
}
