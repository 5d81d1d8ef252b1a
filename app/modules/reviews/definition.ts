import { defineModule } from '../define'

/** Limits a shopper meets in the review form, and the data service enforces. */
export const REVIEW_TITLE_MAX = 120
export const REVIEW_BODY_MAX = 4000
export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const
export type ReviewStatus = (typeof REVIEW_STATUSES)[number]

/**
 * Product reviews: one per customer and product, shown once an admin approves it. Buying is
 * read through the core's `purchases` view, never from the Order tables themselves.
 */
export const reviewsModule = defineModule({
	id: 'reviews',
	version: 1,
	fields: {
		product_id: { type: 'reference', to: 'product' },
		customer_id: { type: 'reference', to: 'user' },
		/** The name shown beside the review, taken from the account when it is written. */
		author_name: { type: 'string', maxLength: 80 },
		rating: { type: 'integer', min: 1, max: 5 },
		title: { type: 'string', maxLength: REVIEW_TITLE_MAX },
		body: { type: 'string', maxLength: REVIEW_BODY_MAX },
		/** pending | approved | rejected */
		status: { type: 'string', maxLength: 16 },
		moderated_at: { type: 'timestamp', optional: true },
	},
	indexes: [{ fields: ['product_id', 'customer_id'], unique: true }, { fields: ['status', 'created_at'] }, { fields: ['product_id', 'status'] }],
	reads: ['purchases', 'catalog'],
})
