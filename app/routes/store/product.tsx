import { useState } from 'react'
import { data, Form, Link, useNavigation, useSearchParams } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/product'
import { getViewer } from '../../auth/guards.server'
import { MAX_LINE_QUANTITY } from '../../rules/limits'
import { REVIEW_BODY_MAX, REVIEW_TITLE_MAX } from '../../modules/reviews/definition'
import { repositoriesFor } from '../../repositories.server'
import { domainFailure, formSchema, parseForm, recordId, wholeNumber } from '../../security/form.server'
import { rateLimitedForm, refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { FormError } from '../../ui/forms'
import { Price } from '../../ui/money-format'
import { ProductGallery } from '../../ui/product-gallery'
import { ReviewForm, Reviews } from '../../ui/reviews'
import { StockBadge } from '../../ui/stock'
import { redirectWithFlash } from '../../security/flash.server'

export const meta = ({ data: product }: Route.MetaArgs) => [{ title: product ? product.title : 'Product' }]
export const headers = refusalHeaders

const SLUG = /^[a-z0-9-]{1,80}$/

async function productOf(args: Route.LoaderArgs | Route.ActionArgs) {
	const viewer = await getViewer(args)
	const slug = args.params.slug
	// Drafts, archived products and unknown slugs are all simply not here (404).
	const product = SLUG.test(slug) ? await repositoriesFor(viewer).catalog.bySlug(slug) : null
	if (!product) throw data({ message: 'This product is not available.' }, { status: 404 })
	return { viewer, product }
}

export async function loader(args: Route.LoaderArgs) {
	const { viewer, product } = await productOf(args)
	const reviews = await repositoriesFor(viewer).reviews.forProduct(product.id)
	return { ...product, reviews: { ...reviews, signedIn: viewer.kind === 'user' } }
}

/** Text a person typed, trimmed, within the Module's limits; no control characters but line breaks. */
const text = (label: string, max: number) =>
	z
		.string()
		.transform((s) => s.trim())
		.pipe(
			z
				.string()
				.min(1, `${label} is required`)
				.max(max, `${label} is at most ${max} characters`)
				.regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, `${label} holds characters that are not text`),
		)
const reviewForm = formSchema({
	intent: z.literal('review', 'Unknown action'),
	rating: wholeNumber('Rating', 1, 5),
	title: text('Title', REVIEW_TITLE_MAX),
	body: text('Review', REVIEW_BODY_MAX),
	reviewId: recordId.optional(),
})

/**
 * Writing or editing a review [R31] (Sensitive, rate-limited): the product is the one this page
 * shows in the viewer's Store, the author is the session's user; neither comes from the form.
 */
export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const { viewer, product } = await productOf(args)
	const form = await parseForm(args.request, reviewForm)
	if (!form.ok) return data(form, { status: 400 })
	const { reviewId, rating, title, body } = form.data
	try {
		const done = await repositoriesFor(viewer).reviews.write(product.id, { rating, title, body }, reviewId)
		throw await redirectWithFlash(
			`/products/${product.slug}#reviews`,
			done === 'created'
				? 'Thank you! Your review will appear once the shop has read it.'
				: 'Your review is updated; it will appear again once the shop has read it.',
		)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function ProductPage({ loaderData: product, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const [params] = useSearchParams()
	// [R121] The variant shown and added: the one the address names, else the first in stock.
	const [chosenId, choose] = useState(
		() => (product.variants.find((variant) => variant.id === params.get('variant')) ?? product.variants.find((v) => v.stock > 0) ?? product.variants[0])?.id,
	)
	const chosen = product.variants.find((variant) => variant.id === chosenId) ?? product.variants[0]
	const stock = chosen?.stock ?? 0
	const max = Math.min(stock, MAX_LINE_QUANTITY)
	const failure = actionData && 'ok' in actionData && !actionData.ok ? actionData : undefined
	const several = product.variants.length > 1
	// The chosen variant's image leads the gallery when it has one.
	const images = chosen?.imageKey ? [...product.images].sort((a, b) => Number(b.key === chosen.imageKey) - Number(a.key === chosen.imageKey)) : product.images
	return (
		<>
			<article className="product-page">
				<ProductGallery title={product.title} images={images} imageKey={chosen?.imageKey ?? product.imageKey} />
				<div>
					<p className="breadcrumbs">
						<Link to="/">All products</Link>
					</p>
					<h1>{product.title}</h1>
					<p className="product-price">
						<Price minor={chosen?.priceMinor ?? product.priceMinor} />
						{several && chosen ? <span className="variant-title"> · {chosen.title}</span> : null}
					</p>
					<p className="product-stock">
						<StockBadge stock={stock} />
					</p>
					<p className="description">{product.description}</p>
					{product.stock > 0 ? (
						<Form method="post" action="/cart" className="add-to-cart">
							<input type="hidden" name="intent" value="add" />
							<input type="hidden" name="productId" value={product.id} />
							{several ? (
								<fieldset className="variant-picker">
									<legend>{product.optionNames.join(' and ') || 'Variant'}</legend>
									{product.variants.map((variant) => (
										<label key={variant.id}>
											<input
												type="radio"
												name="variantId"
												value={variant.id}
												checked={variant.id === chosen?.id}
												disabled={variant.stock <= 0}
												onChange={() => choose(variant.id)}
											/>
											<span>{variant.title}</span>
											<Price minor={variant.priceMinor} />
											<StockBadge stock={variant.stock} />
										</label>
									))}
								</fieldset>
							) : chosen ? (
								<input type="hidden" name="variantId" value={chosen.id} />
							) : null}
							<label htmlFor="quantity">Quantity</label>
							<input id="quantity" name="quantity" type="number" min={1} max={max || undefined} defaultValue={1} inputMode="numeric" />
							<button type="submit" disabled={pending || stock <= 0}>
								{pending ? 'Adding…' : stock <= 0 ? 'Sold out' : 'Add to cart'}
							</button>
						</Form>
					) : null}
				</div>
			</article>
			<Reviews summary={product.reviews}>
				<FormError message={failure?.formError} />
				{product.reviews.canReview ? (
					<ReviewForm mine={product.reviews.mine} errors={failure?.fieldErrors} limits={{ title: REVIEW_TITLE_MAX, body: REVIEW_BODY_MAX }} />
				) : (
					<p className="hint" data-testid="review-eligibility">
						{product.reviews.signedIn
							? 'Customers who bought this product can review it once their payment has arrived.'
							: 'Sign in to review a product you bought.'}
					</p>
				)}
			</Reviews>
		</>
	)
}
