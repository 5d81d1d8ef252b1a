import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/cart'
import { getViewer } from '../../auth/guards.server'
import { MAX_LINE_QUANTITY } from '../../rules/limits'
import { lineName } from '../../rules/variants'
import { repositoriesFor } from '../../repositories.server'
import { domainFailure, formFailure, formSchema, parseForm, recordId, wholeNumber } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { FormError } from '../../ui/forms'
import { Price } from '../../ui/money-format'
import { z } from 'zod'

export const meta = () => [{ title: 'Your cart' }]

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	return repositoriesFor(viewer).cart.summary()
}

const quantity = wholeNumber('Quantity', 1, MAX_LINE_QUANTITY)

const cartForm = formSchema({
	intent: z.enum(['add', 'update', 'remove'], 'Unknown cart action'),
	productId: recordId.optional(),
	variantId: recordId.optional(),
	lineId: recordId.optional(),
	quantity: quantity.optional(),
})

/**
 * POST /cart with `intent` (a public contract): add (productId, variantId — needed when the
 * product has several variants [R121] — and quantity),
 * update (lineId, quantity), remove (lineId). The owner is the session (Customer) or the
 * signed guestId (Guest); prices never come from the form (a price or total field is 400).
 */
export async function action(args: Route.ActionArgs) {
	const viewer = await getViewer(args)
	const form = await parseForm(args.request, cartForm)
	if (!form.ok) return data(form, { status: 400 })
	const { intent, productId, variantId, lineId, quantity: count } = form.data
	const cart = repositoriesFor(viewer).cart
	try {
		if (intent === 'add') {
			if (!productId) return data(formFailure({ productId: 'Choose a product' }, 'Choose a product.'), { status: 400 })
			const added = await cart.add({ productId, variantId, quantity: count ?? 1 })
			throw await redirectWithFlash('/cart', `Added ${added.title} to your cart.`)
		}
		if (!lineId) return data(formFailure({ lineId: 'Choose a cart line' }, 'Choose a cart line.'), { status: 400 })
		if (intent === 'update') {
			if (count === undefined) return data(formFailure({ quantity: 'Enter a quantity' }, 'Enter a quantity.'), { status: 400 })
			await cart.update(lineId, count)
			throw await redirectWithFlash('/cart', 'Your cart has been updated.')
		}
		await cart.remove(lineId)
		throw await redirectWithFlash('/cart', 'The item was removed from your cart.')
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function Cart({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const { lines, subtotalMinor } = loaderData
	const problem = lines.some((line) => !line.available)
	return (
		<section>
			<h1>Your cart</h1>
			<FormError message={actionData?.formError} />
			{lines.length === 0 ? (
				<div className="empty-state" data-testid="cart-empty">
					<p>Your cart is empty.</p>
					<Link to="/">Continue shopping</Link>
				</div>
			) : (
				<>
					<table className="data-table cart-table">
						<thead>
							<tr>
								<th>Product</th>
								<th>Price</th>
								<th>Quantity</th>
								<th>Total</th>
								<th>
									<span className="visually-hidden">Remove</span>
								</th>
							</tr>
						</thead>
						<tbody>
							{lines.map((line) => (
								<tr key={line.id} data-testid="cart-line">
									<td data-label="Product">
										<Link to={`/products/${line.product.slug}`}>{line.product.title}</Link>
										{line.variant.title ? (
											<p className="variant-title" data-testid="cart-variant">
												{line.variant.title}
											</p>
										) : null}
										{line.available ? null : <p className="field-error">Not available in this quantity any more.</p>}
									</td>
									<td data-label="Price">
										<Price minor={line.variant.priceMinor} />
									</td>
									<td data-label="Quantity">
										<Form method="post" className="inline-form">
											<input type="hidden" name="intent" value="update" />
											<input type="hidden" name="lineId" value={line.id} />
											<label className="visually-hidden" htmlFor={`qty-${line.id}`}>
												Quantity of {lineName(line.product.title, line.variant.title)}
											</label>
											<input
												id={`qty-${line.id}`}
												name="quantity"
												type="number"
												min={1}
												max={MAX_LINE_QUANTITY}
												defaultValue={line.quantity}
												inputMode="numeric"
											/>
											<button type="submit" className="secondary" disabled={pending}>
												Update
											</button>
										</Form>
									</td>
									<td data-label="Total">
										<Price minor={line.lineTotalMinor} />
									</td>
									<td className="cart-remove">
										<Form method="post">
											<input type="hidden" name="intent" value="remove" />
											<input type="hidden" name="lineId" value={line.id} />
											<button type="submit" className="link-button" disabled={pending}>
												Remove
											</button>
										</Form>
									</td>
								</tr>
							))}
						</tbody>
					</table>
					<p className="cart-total">
						Subtotal:{' '}
						<strong data-testid="cart-subtotal">
							<Price minor={subtotalMinor} />
						</strong>
					</p>
					<p className="hint">Shipping and any tax are shown at checkout. Prices are checked again when you place the order.</p>
					{problem ? (
						<p className="form-error">Update or remove the items marked above before checking out.</p>
					) : (
						<Link to="/checkout" className="button">
							Check out
						</Link>
					)}
				</>
			)}
		</section>
	)
}
