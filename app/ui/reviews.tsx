import { Form, useNavigation } from 'react-router'
import { FieldError } from './forms'

type PublicReview = { id: string; authorName: string; rating: number; title: string; body: string; createdAt: Date }
type Summary = {
	count: number
	average: number | null
	reviews: PublicReview[]
	mine: (PublicReview & { status: string }) | null
}

const stars = (rating: number) => '★'.repeat(rating) + '☆'.repeat(5 - rating)

/** A product's approved reviews, shown as text only (React escapes it), with their average. */
export function Reviews({ summary, children }: { summary: Summary; children?: React.ReactNode }) {
	return (
		<section id="reviews" className="reviews" aria-labelledby="reviews-heading">
			<h2 id="reviews-heading">Reviews</h2>
			<p data-testid="review-summary">
				{summary.count === 0 ? 'No reviews yet.' : `${summary.average} out of 5 · ${summary.count} review${summary.count === 1 ? '' : 's'}`}
			</p>
			<ul className="review-list">
				{summary.reviews.map((review) => (
					<li key={review.id} data-testid="review">
						<p>
							<span aria-label={`${review.rating} out of 5`}>{stars(review.rating)}</span> <strong>{review.title}</strong>
						</p>
						<p className="review-body">{review.body}</p>
						<p className="hint">
							{review.authorName} · {review.createdAt.toISOString().slice(0, 10)}
						</p>
					</li>
				))}
			</ul>
			{children}
		</section>
	)
}

type Limits = { title: number; body: number }

/** Write a review, or edit one's own (which goes back to the shop to read). */
export function ReviewForm({ mine, errors = {}, limits }: { mine: Summary['mine']; errors?: Record<string, string>; limits: Limits }) {
	const pending = useNavigation().state === 'submitting'
	return (
		<Form method="post" className="review-form" aria-label={mine ? 'Edit your review' : 'Write a review'}>
			<h3>{mine ? 'Your review' : 'Write a review'}</h3>
			{mine ? (
				<p className="hint" data-testid="my-review-status">
					{mine.status === 'approved'
						? 'Shown on this page.'
						: mine.status === 'rejected'
							? 'The shop did not publish it.'
							: 'Waiting for the shop to read it.'}
				</p>
			) : null}
			<input type="hidden" name="intent" value="review" />
			{mine ? <input type="hidden" name="reviewId" value={mine.id} /> : null}
			<div className="field">
				<label htmlFor="review-rating">Rating</label>
				<select id="review-rating" name="rating" defaultValue={mine?.rating ?? 5}>
					{[5, 4, 3, 2, 1].map((n) => (
						<option key={n} value={n}>
							{n} – {stars(n)}
						</option>
					))}
				</select>
				<FieldError id="review-rating-error" message={errors.rating} />
			</div>
			<div className="field">
				<label htmlFor="review-title">Title</label>
				<input id="review-title" name="title" required maxLength={limits.title} defaultValue={mine?.title} />
				<FieldError id="review-title-error" message={errors.title} />
			</div>
			<div className="field">
				<label htmlFor="review-body">Review</label>
				<textarea id="review-body" name="body" required maxLength={limits.body} rows={5} defaultValue={mine?.body} />
				<FieldError id="review-body-error" message={errors.body} />
			</div>
			<button type="submit" disabled={pending}>
				{mine ? 'Update review' : 'Submit review'}
			</button>
		</Form>
	)
}
