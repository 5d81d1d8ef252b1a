import { randomUUID } from 'node:crypto'
import { useEffect, useState } from 'react'
import { data, Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/checkout'
import { rateLimitedForm, refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { getViewer } from '../../auth/guards.server'
import type { Viewer } from '../../data/viewer'
import { repositoriesFor, userRepositoriesFor } from '../../repositories.server'
import { StoreBusyError } from '../../errors.server'
import { domainFailure, fields, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../ui/flash.server'
import { redirectToPayment } from './payment.server'
import { Field, FormError, Honeypot } from '../../ui/forms'
import { Price } from '../../ui/money-format'
import { log } from '../../log/logger.server'
import { isCountryCode } from '../../shipping/countries'
import { orderTotals, percentText } from '../../orders/totals'
import type { ShippingTable } from '../../shipping/shipping.server'
import { Link } from '../../ui/link'

export const meta = () => [{ title: 'Checkout' }]

/** An action's refusal headers (the busy 503's Retry-After, a 429's) reach the page too. */
export const headers = refusalHeaders

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	const repositories = repositoriesFor(viewer)
	const summary = await repositories.cart.summary()
	// A refused submit answers its 429 beside the form whatever the cart holds [R51].
	if (summary.lines.length === 0 && !rateLimitedForm(args.context)) throw await redirectWithFlash('/cart', 'Your cart is empty.')
	const [connections, shipping] = await Promise.all([repositories.checkout.connections(), repositories.checkout.shipping()])
	return {
		summary,
		connections: connections.map(({ handle, displayName }) => ({ handle, displayName })),
		shipping,
		// One key per rendering of this page: a replayed or double-clicked submit carries the same one.
		idempotencyKey: randomUUID(),
		prefill: await prefillFor(viewer),
	}
}

const NO_ADDRESS = { addressLine1: '', addressLine2: '', city: '', postalCode: '', country: '', fromLastOrder: false }

/** A Customer's name and email, and the address of their latest Order; a guest's form is empty. */
async function prefillFor(viewer: Viewer) {
	if (viewer.kind !== 'user') return { email: '', name: '', ...NO_ADDRESS }
	const last = await userRepositoriesFor(viewer).myOrders.lastShippingAddress()
	return { email: viewer.email, name: viewer.name, ...NO_ADDRESS, ...(last ? { ...last, fromLastOrder: true } : {}) }
}

const text = (label: string, max: number) => z.string().trim().min(1, `Enter ${label}`).max(max, `Use at most ${max} characters`)

const checkoutForm = formSchema({
	email: fields.email,
	name: fields.name,
	addressLine1: text('a street address', 120),
	addressLine2: z.string().trim().max(120, 'Use at most 120 characters'),
	city: text('a city', 80),
	postalCode: text('a postal code', 16).regex(/^[A-Za-z0-9 -]+$/, 'Enter a valid postal code'),
	country: z
		.string()
		.trim()
		.toUpperCase()
		.regex(/^[A-Z]{2}$/, 'Enter a two-letter country code (e.g. US, DE)')
		.refine(isCountryCode, 'That is not a country code we know (e.g. US, DE, GB)'),
	shippingRate: z
		.string()
		.regex(/^[A-Za-z0-9_-]{1,40}$/, 'Choose one of the shipping options offered')
		.optional(),
	payment: z.string().regex(/^[a-z0-9-]{1,40}$/, 'Choose a payment method'),
	// Optional; applied or refused (with why) on the server [R132, R133].
	discountCode: z
		.string()
		.trim()
		.regex(/^([A-Za-z0-9_-]{1,40})?$/, 'That discount code is not valid. Check it, or leave the field empty.')
		.optional(),
	idempotencyKey: z.uuid('Reload the checkout page and try again'),
})

/**
 * The spec's Checkout request: validated on the server, placed in one transaction, then
 * paid through the chosen Connection. Offline: straight to the confirmation. Stripe: to
 * the provider's Checkout page (303), which returns to the confirmation.
 */
export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const viewer = await getViewer(args)
	const form = await parseForm(args.request, checkoutForm)
	if (!form.ok) return data(form, { status: 400 })
	const { payment, shippingRate, discountCode, idempotencyKey, ...details } = form.data
	let placed
	try {
		placed = await repositoriesFor(viewer).checkout.placeOrder({
			details,
			connectionHandle: payment,
			shippingRateId: shippingRate,
			discountCode: discountCode || undefined,
			idempotencyKey,
		})
	} catch (error) {
		// Contention that outlasted the retries [R67]: the form again, the cart as it was, when to retry.
		if (error instanceof StoreBusyError) log.warn('[checkout] gave up under contention; answered 503')
		return domainFailure(error)
	}
	const { order } = placed
	const confirmation = `/orders/${order.token}`
	if (order.status !== 'awaiting_payment' || order.connection.provider !== 'stripe') throw redirect(confirmation)
	return redirectToPayment(viewer, order, { confirmation, failure: 'Your order is saved, but the payment could not be started. Try “Pay now” again.' })
}

/** The rates offered for `country`: its zone's, or every zone's while the country is not one shipped to. */
function ratesFor(shipping: ShippingTable, country: string) {
	const zone = shipping.zones.find((z) => z.countries.includes(country))
	return { zone, rates: (zone ? [zone] : shipping.zones).flatMap((z) => z.rates.map((rate) => ({ ...rate, zoneName: z.name }))) }
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const errors = actionData?.fieldErrors ?? {}
	const { summary, connections, idempotencyKey, prefill, shipping } = loaderData
	// Without JavaScript every rate is offered and the server checks the one chosen; with it, the
	// rates and the totals follow the country typed [R119].
	const [hydrated, setHydrated] = useState(false)
	useEffect(() => setHydrated(true), [])
	const [country, setCountry] = useState(prefill.country.toUpperCase())
	const here = ratesFor(shipping, country)
	const [rateId, setRateId] = useState(here.zone?.rates[0]?.id ?? '')
	const offered = hydrated || here.zone ? here.rates : ratesFor(shipping, '').rates
	const chosen = here.zone?.rates.find((rate) => rate.id === rateId) ?? null
	const needsShipping = shipping.zones.length > 0
	const totals = orderTotals({
		subtotalMinor: summary.subtotalMinor,
		shipping: chosen,
		taxRateBasisPoints: shipping.taxRates[country] ?? 0,
		pricesIncludeTax: shipping.pricesIncludeTax,
	})
	return (
		<section className="checkout">
			<h1>Checkout</h1>
			<div className="checkout-grid">
				<Form method="post" noValidate className="card wide">
					<FormError message={actionData?.formError} />
					<h2>Contact</h2>
					<Field name="email" label="Email" type="email" autoComplete="email" defaultValue={prefill.email} required error={errors.email} />
					<h2>Shipping address</h2>
					{prefill.fromLastOrder ? (
						<p className="hint" data-testid="address-from-last-order">
							Filled in from your last order: change anything that is different this time.
						</p>
					) : null}
					<Field name="name" label="Full name" autoComplete="name" defaultValue={prefill.name} required error={errors.name} />
					<Field
						name="addressLine1"
						label="Street address"
						autoComplete="address-line1"
						defaultValue={prefill.addressLine1}
						required
						error={errors.addressLine1}
					/>
					<Field
						name="addressLine2"
						label="Apartment, suite (optional)"
						autoComplete="address-line2"
						defaultValue={prefill.addressLine2}
						error={errors.addressLine2}
					/>
					<Field name="city" label="City" autoComplete="address-level2" defaultValue={prefill.city} required error={errors.city} />
					<Field name="postalCode" label="Postal code" autoComplete="postal-code" defaultValue={prefill.postalCode} required error={errors.postalCode} />
					<Field
						name="country"
						label="Country code"
						autoComplete="country"
						placeholder="US"
						maxLength={2}
						defaultValue={prefill.country}
						onChange={(event) => setCountry(event.currentTarget.value.trim().toUpperCase())}
						required
						error={errors.country}
					/>
					{needsShipping ? (
						<fieldset className="payment-methods" data-testid="shipping-options">
							<legend>Shipping</legend>
							{offered.length === 0 ? <p className="hint">This shop does not ship to {country} yet.</p> : null}
							{offered.map((rate) => (
								<label key={rate.id} className="radio">
									<input type="radio" name="shippingRate" value={rate.id} checked={rate.id === rateId} onChange={() => setRateId(rate.id)} />{' '}
									{here.zone ? '' : `${rate.zoneName}: `}
									{rate.name} · {rate.priceMinor === 0 ? 'free' : <Price minor={rate.priceMinor} />}
									{rate.freeOverMinor !== null ? (
										<>
											{' '}
											(free from <Price minor={rate.freeOverMinor} />)
										</>
									) : null}
								</label>
							))}
							{errors.shippingRate ? <p className="field-error">{errors.shippingRate}</p> : null}
						</fieldset>
					) : null}
					<fieldset className="payment-methods">
						<legend>Payment</legend>
						{connections.map((connection, index) => (
							<label key={connection.handle} className="radio">
								<input type="radio" name="payment" value={connection.handle} defaultChecked={index === 0} /> {connection.displayName}
							</label>
						))}
						{errors.payment ? <p className="field-error">{errors.payment}</p> : null}
					</fieldset>
					<Field name="discountCode" label="Discount code (optional)" autoComplete="off" maxLength={40} error={errors.discountCode} />
					<input type="hidden" name="idempotencyKey" value={idempotencyKey} />
					<Honeypot />
					<button type="submit" disabled={pending}>
						{pending ? 'Placing order…' : 'Place order'}
					</button>
				</Form>
				<aside className="card order-summary">
					<h2>Order summary</h2>
					<ul>
						{summary.lines.map((line) => (
							<li key={line.id}>
								{line.quantity} × {line.product.title} <Price minor={line.lineTotalMinor} />
							</li>
						))}
					</ul>
					{needsShipping || totals.taxMinor > 0 ? (
						<dl className="order-charges">
							<dt>Subtotal</dt>
							<dd data-testid="checkout-subtotal">
								<Price minor={summary.subtotalMinor} />
							</dd>
							{needsShipping ? (
								<>
									<dt>Shipping{chosen ? ` (${chosen.name})` : ''}</dt>
									<dd data-testid="checkout-shipping">
										{chosen ? totals.shippingMinor === 0 ? 'Free' : <Price minor={totals.shippingMinor} /> : 'choose an option'}
									</dd>
								</>
							) : null}
							{totals.taxMinor > 0 ? (
								<>
									<dt>{totals.taxIncluded ? `Includes tax (${percentText(totals.taxRateBasisPoints)})` : `Tax (${percentText(totals.taxRateBasisPoints)})`}</dt>
									<dd data-testid="checkout-tax">
										<Price minor={totals.taxMinor} />
									</dd>
								</>
							) : null}
						</dl>
					) : null}
					<p>
						Total:{' '}
						<strong data-testid="checkout-total">
							<Price minor={totals.totalMinor} />
						</strong>
						{needsShipping && !chosen ? <span className="hint"> plus shipping</span> : null}
					</p>
					<Link to="/cart">Edit cart</Link>
				</aside>
			</div>
		</section>
	)
}
