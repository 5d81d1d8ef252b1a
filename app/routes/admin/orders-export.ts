import { data } from 'react-router'
import type { Route } from './+types/orders-export'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { parseDay } from '../../rules/csv'
import { csvResponse } from './csv-response.server'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * [R128] GET /admin/orders/export.csv?from=YYYY-MM-DD&to=YYYY-MM-DD: the Orders created from
 * the first day through the last (UTC), both optional, streamed. A date that is not a calendar
 * day, or a range that ends before it starts, is a 400 and nothing is read.
 */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const params = new URL(args.request.url).searchParams
	const range: { from?: Date; to?: Date } = {}
	for (const name of ['from', 'to'] as const) {
		const text = params.get(name)
		if (text === null || text === '') continue
		const day = parseDay(text)
		if (!day) throw data({ message: `${name} must be a date like 2026-01-31.` }, { status: 400 })
		range[name] = name === 'to' ? new Date(day.getTime() + DAY_MS) : day
	}
	if (range.from && range.to && range.from >= range.to) throw data({ message: 'The range ends before it starts.' }, { status: 400 })
	const name = `orders${range.from ? `-from-${params.get('from')}` : ''}${range.to ? `-to-${params.get('to')}` : ''}.csv`
	return csvResponse(adminRepositoriesFor(admin).exports.orders(range), name)
}
