/**
 * Product reviews above the data service: the session-scoped layer that decides who may write
 * what [R31]. The service keeps rows inside the Store and checks their types; this file checks
 * that the viewer bought the product (through the core's `purchases` view [R32]), writes at most
 * one review per customer and product, edits only the viewer's own, and shows only approved ones.
 */
import { DomainError } from '../../errors.server'
import { ModuleConflictError, type ModuleDataService, ModuleInputError, type Row } from '../data-service.server'
import { REVIEW_STATUSES, type ReviewStatus, reviewsModule } from './definition'

type Reviews = ModuleDataService<typeof reviewsModule>
export type Review = Row<typeof reviewsModule>
export const REVIEWS_SHOWN = 20

/** Order statuses that count as having bought: the money arrived (and perhaps the parcel). */
const BOUGHT = ['paid', 'fulfilled']

export type ReviewInput = { rating: number; title: string; body: string }
/** Who is asking, from the session: a signed-in customer's id and name, or nobody. */
export type Reviewer = { userId: string; name: string } | null

type Approved = { count: number; average: number | null; reviews: ReturnType<typeof publicReview>[] }

const publicReview = (r: Review) => ({ id: r.id, authorName: r.author_name, rating: r.rating, title: r.title, body: r.body, createdAt: r.created_at })

export function reviewsRepository(reviews: Reviews, reviewer: Reviewer) {
	async function bought(productId: string) {
		if (!reviewer) return false
		return (await reviews.view('purchases').count({ customer_id: reviewer.userId, product_id: productId, status: { in: BOUGHT } })) > 0
	}
	const mine = (productId: string) => (reviewer ? reviews.find({ product_id: productId, customer_id: reviewer.userId }) : Promise.resolve(null))

	return {
		/** What the product page shows: approved reviews, their average and count, and the viewer's own. */
		async forProduct(productId: string) {
			const [approved, own, canReview] = await Promise.all([
				// What every visitor sees alike, read on every product page and changed only by a
				// moderation or an author's edit: kept by the data service until the next write.
				// Nothing of this viewer (their own review, whether they bought) is kept.
				reviews.cached<Approved>(`approved\u0000${productId}`, async () => {
					const [summary, page] = await Promise.all([
						reviews.average('rating', { product_id: productId, status: 'approved' }),
						reviews.list({ where: { product_id: productId, status: 'approved' }, limit: REVIEWS_SHOWN }),
					])
					return {
						count: summary.count,
						average: summary.average === null ? null : Math.round(summary.average * 10) / 10,
						reviews: page.rows.map(publicReview),
					}
				}),
				mine(productId),
				bought(productId),
			])
			return {
				...approved,
				mine: own ? { ...publicReview(own), status: own.status as ReviewStatus } : null,
				canReview: canReview || own !== null,
			}
		},

		/**
		 * Writes the viewer's review of a product of this Store (the caller found it in the viewer's
		 * Store), or edits it when `reviewId` names it; an edit goes back to the moderation queue.
		 */
		async write(productId: string, given: ReviewInput, reviewId?: string) {
			if (!reviewer) throw new DomainError(403, 'Sign in to review a product you bought.')
			const input = { rating: given.rating, title: given.title, body: given.body }
			if (reviewId !== undefined) {
				// Someone else's review, or none: the same 404, and nothing changes.
				const updated = await reviews.update(
					reviewId,
					{ ...input, status: 'pending', moderated_at: null },
					{ customer_id: reviewer.userId, product_id: productId },
				)
				if (!updated) throw new DomainError(404, 'That review was not found.')
				return 'updated' as const
			}
			if (!(await bought(productId))) throw new DomainError(403, 'Only customers who bought this product (and whose payment arrived) can review it.')
			if (await mine(productId)) throw new DomainError(409, 'You have reviewed this product already; you can edit your review.')
			try {
				await reviews.create({
					product_id: productId,
					customer_id: reviewer.userId,
					author_name: [...reviewer.name].slice(0, 80).join(''),
					...input,
					status: 'pending',
					moderated_at: null,
				})
			} catch (error) {
				// Two submissions at once: the unique index lets one through.
				if (error instanceof ModuleConflictError) throw new DomainError(409, 'You have reviewed this product already; you can edit your review.')
				throw error
			}
			return 'created' as const
		},
	}
}

/** An activity-log entry written in the same transaction as the moderation it records. */
export type Audit = (entry: {
	action: `review.${'approve' | 'reject' | 'delete'}`
	targetType: string
	targetId: string
	detail?: Record<string, unknown>
}) => Promise<unknown>

/** Moderation for Store Admin: the queue, approve, reject, delete; each audited with the change. */
export function adminReviewsRepository(reviews: Reviews, atomically: <T>(work: (reviews: Reviews, audit: Audit) => Promise<T>) => Promise<T>) {
	return {
		async page({ status, cursor }: { status: ReviewStatus; cursor?: string | null }) {
			const list = (after?: string | null) =>
				reviews.list({ where: { status }, orderBy: { field: 'created_at', direction: status === 'pending' ? 'asc' : 'desc' }, limit: 50, cursor: after })
			// A cursor this list did not give (edited by hand) starts from the top.
			const [page, ...counts] = await Promise.all([
				list(cursor).catch((error) => {
					if (error instanceof ModuleInputError) return list(null)
					throw error
				}),
				...REVIEW_STATUSES.map((s) => reviews.count({ status: s })),
			])
			const ids = [...new Set(page.rows.map((r) => r.product_id))]
			const products = ids.length ? (await reviews.view('catalog').list({ where: { id: { in: ids } }, limit: 100 })).rows : []
			const titles = new Map(products.map((p) => [p.id, { title: String(p.title), slug: String(p.slug) }]))
			return {
				reviews: page.rows.map((r) => ({ ...publicReview(r), status: r.status as ReviewStatus, product: titles.get(r.product_id) ?? null })),
				next: page.next,
				counts: Object.fromEntries(REVIEW_STATUSES.map((s, i) => [s, counts[i]!])) as Record<ReviewStatus, number>,
			}
		},

		async moderate(id: string, decision: 'approve' | 'reject' | 'delete') {
			await atomically(async (tx, audit) => {
				const review = await tx.get(id)
				if (!review) throw new DomainError(404, 'That review was not found.')
				if (decision === 'delete') await tx.delete(id)
				else await tx.update(id, { status: decision === 'approve' ? 'approved' : 'rejected', moderated_at: new Date() })
				await audit({
					action: `review.${decision}`,
					targetType: 'review',
					targetId: id,
					detail: { productId: review.product_id, from: review.status, rating: review.rating },
				})
			})
			// The transaction's writes forgot the cache before they committed: forget it again now.
			reviews.forgetCached()
		},
	}
}
