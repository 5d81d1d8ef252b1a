import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/reviews'
import { requireAdmin } from '../../auth/guards.server'
import { REVIEW_STATUSES, type ReviewStatus } from '../../modules/reviews/definition'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure, formSchema, parseForm, recordId } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { StateLinks } from '../../ui/admin-list'
import { FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Reviews · Store Admin' }]

const statusOf = (request: Request): ReviewStatus => {
	const asked = new URL(request.url).searchParams.get('status')
	return REVIEW_STATUSES.includes(asked as ReviewStatus) ? (asked as ReviewStatus) : 'pending'
}

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const status = statusOf(args.request)
	const cursor = new URL(args.request.url).searchParams.get('after')
	const page = await adminRepositoriesFor(admin).reviewModeration.page({ status, cursor: cursor && cursor.length <= 200 ? cursor : null })
	return { status, ...page }
}

const moderateForm = formSchema({ intent: z.enum(['approve', 'reject', 'delete'], 'Unknown action'), id: recordId })
const DONE = { approve: 'Review approved: it shows on the product page.', reject: 'Review rejected: it is not shown.', delete: 'Review deleted.' }

/** Approve, reject or delete a review; each is audited with the change. */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await parseForm(args.request, moderateForm)
	if (!form.ok) return data(form, { status: 400 })
	try {
		await adminRepositoriesFor(admin).reviewModeration.moderate(form.data.id, form.data.intent)
	} catch (error) {
		return domainFailure(error)
	}
	throw await redirectWithFlash(`/admin/reviews?status=${statusOf(args.request)}`, DONE[form.data.intent])
}

export default function ReviewModeration({ loaderData, actionData }: Route.ComponentProps) {
	const { status, counts, reviews, next } = loaderData
	return (
		<section>
			<h1>Reviews</h1>
			<p className="hint">Customers who bought a product can review it; a review shows on the product page once approved here.</p>
			<FormError message={actionData && 'formError' in actionData ? actionData.formError : undefined} />
			<StateLinks path="/admin/reviews" param="status" states={REVIEW_STATUSES} current={status} counts={counts} />
			{reviews.length === 0 ? (
				<p data-testid="reviews-empty">No {status} reviews.</p>
			) : (
				<table className="data-table">
					<thead>
						<tr>
							<th>Product</th>
							<th>Rating</th>
							<th>Review</th>
							<th>By</th>
							<th>Actions</th>
						</tr>
					</thead>
					<tbody>
						{reviews.map((review) => (
							<tr key={review.id} data-status={review.status}>
								<td data-label="Product">
									{review.product ? <Link to={`/products/${review.product.slug}`}>{review.product.title}</Link> : 'A product since removed'}
								</td>
								<td data-label="Rating">{review.rating} / 5</td>
								<td data-label="Review">
									<strong>{review.title}</strong>
									<p className="review-body">{review.body}</p>
								</td>
								<td data-label="By">
									{review.authorName}
									<br />
									<span className="hint">{review.createdAt.toISOString().slice(0, 10)}</span>
								</td>
								<td data-label="Actions">
									<Form method="post" className="inline-actions">
										<input type="hidden" name="id" value={review.id} />
										{review.status !== 'approved' ? (
											<button type="submit" name="intent" value="approve">
												Approve
											</button>
										) : null}
										{review.status !== 'rejected' ? (
											<button type="submit" name="intent" value="reject">
												Reject
											</button>
										) : null}
										<button type="submit" name="intent" value="delete">
											Delete
										</button>
									</Form>
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			{next ? <Link to={`/admin/reviews?status=${status}&after=${encodeURIComponent(next)}`}>Older reviews</Link> : null}
		</section>
	)
}
