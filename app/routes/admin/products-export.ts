import type { Route } from './+types/products-export'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { csvResponse } from './csv-response.server'

/** [R128] GET /admin/products/export.csv: every Product of the Store, a row per variant, streamed. */
export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return csvResponse(adminRepositoriesFor(admin).exports.products(), 'products.csv')
}
