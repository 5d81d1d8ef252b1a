import { randomUUID } from 'node:crypto'
import { useEffect, useRef, useState } from 'react'
import { Form, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/checkout'
import { rateLimitedForm, refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { getViewer } from '../../auth/guards.server'
import type { Viewer } from '../../data/viewer'
import { repositoriesFor, userRepositoriesFor } from '../../repositories.server'
import { StoreBusyError } from '../../errors.server'
import { domainFailure, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { redirectToPayment } from './payment.server'
import { Field, FormError, Honeypot } from '../../ui/forms'
import { log } from '../../log/logger.server'
import { CountrySelect } from '../../ui/country-select'
import { countryChoices } from '../../rules/countries'
import { CHECKOUT_TEXT_FIELDS, type CheckoutValues } from './checkout-fields'
import { checkoutForm, keptDiscount, sentOf, unplacedAnswer } from './checkout-form.server'
import { CheckoutSummary, DiscountEntry, ShippingOptions, ratesFor } from './checkout-parts'

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
		// Named on the server: the browser's Intl names some countries otherwise (see CountrySelect).
		countries: countryChoices(shipping.zones.flatMap((zone) => zone.countries)),
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

/**
 * The spec's Checkout request: validated on the server, placed in one transaction, then
 * paid through the chosen Connection. Offline: straight to the confirmation. Stripe: to
 * the provider's Checkout page (303), which returns to the confirmation. Every refusal, a 429
 * too, answers the form with what was typed in it [R127]; "Show shipping options" and "Apply"
 * answer it priced, with the code's discount as the server works it out, and place nothing [R132].
 */
export async function action(args: Route.ActionArgs) {
	const { values, intent } = await sentOf(args.request.clone())
	// A refused request reads nothing more: the code stays typed, its discount is priced on the next try.
	const limited = rateLimitedForm(args.context, { values, discount: null })
	if (limited) return limited
	const viewer = await getViewer(args)
	const checkout = repositoriesFor(viewer).checkout
	const form = await parseForm(args.request, checkoutForm)
	if (!form.ok || intent === 'rates' || intent === 'apply') return unplacedAnswer({ form, intent, values, preview: checkout.previewDiscount })
	const { payment, shippingRate, discountCode, idempotencyKey, intent: _intent, ...details } = form.data
	let placed
	try {
		placed = await checkout.placeOrder({
			details,
			connectionHandle: payment,
			shippingRateId: shippingRate,
			discountCode: discountCode || undefined,
			idempotencyKey,
		})
	} catch (error) {
		// Contention that outlasted the retries [R67]: the form again, the cart as it was, when to retry.
		if (error instanceof StoreBusyError) log.warn('[checkout] gave up under contention; answered 503')
		return domainFailure(error, { values, discount: await keptDiscount(error, values, checkout.previewDiscount) })
	}
	const { order } = placed
	const confirmation = `/orders/${order.token}`
	if (order.status !== 'awaiting_payment' || order.connection.provider !== 'stripe') throw redirect(confirmation)
	return redirectToPayment(viewer, order, { confirmation, failure: 'Your order is saved, but the payment could not be started. Try “Pay now” again.' })
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	// Only "Place order" places: "Apply" and "Show shipping options" leave its button as it was.
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'place'
	const errors: Record<string, string | undefined> = actionData?.fieldErrors ?? {}
	const { summary, connections, idempotencyKey, prefill, shipping, countries } = loaderData
	// What the form shows: what was sent when a submit came back refused, else the prefill [R127].
	const shown: Partial<CheckoutValues> = actionData && 'values' in actionData ? actionData.values : prefill
	// The code's discount as the server worked it out when the form last came back [R132].
	const discount = actionData && 'discount' in actionData ? actionData.discount : null
	// Without JavaScript the shopper picks a country and asks for its rates (a second submit that
	// places nothing); with it, the rates and the totals follow the country at once [R119].
	const [hydrated, setHydrated] = useState(false)
	const [country, setCountry] = useState(shown.country ?? '')
	const [rateId, setRateId] = useState(shown.shippingRate ?? '')
	const formRef = useRef<HTMLFormElement>(null)
	useEffect(() => {
		// What was picked before the page came alive is what the summary follows from now on.
		const form = formRef.current
		if (form) {
			const picked = new FormData(form)
			setCountry(String(picked.get('country') ?? ''))
			setRateId(String(picked.get('shippingRate') ?? ''))
		}
		setHydrated(true)
	}, [])
	const here = ratesFor(shipping, country)
	// The rate shown chosen: the one picked when it ships here, else the cheapest that does.
	const chosen = here.find((rate) => rate.id === rateId) ?? here[0] ?? null
	const inSection = (section: 'contact' | 'address' | 'discount') =>
		CHECKOUT_TEXT_FIELDS.filter((spec) => spec.section === section).map((spec) => (
			<Field
				key={spec.name}
				name={spec.name}
				label={spec.label}
				type={'type' in spec ? spec.type : 'text'}
				autoComplete={spec.autoComplete}
				defaultValue={shown[spec.name] ?? ''}
				required={spec.required}
				error={errors[spec.name]}
			/>
		))
	return (
		<section className="checkout">
			<h1>Checkout</h1>
			<div className="checkout-grid">
				{/* Before the form in the page, so a phone shows what is bought before "Place order". */}
				<CheckoutSummary summary={summary} shipping={shipping} country={country} chosen={chosen} discount={discount} />
				<Form ref={formRef} method="post" noValidate className="card wide checkout-form">
					<FormError message={actionData?.formError} />
					<h2>Contact</h2>
					{inSection('contact')}
					<h2>Shipping address</h2>
					{prefill.fromLastOrder && !actionData ? (
						<p className="hint" data-testid="address-from-last-order">
							Filled in from your last order: change anything that is different this time.
						</p>
					) : null}
					{inSection('address')}
					<CountrySelect
						name="country"
						label="Country"
						autoComplete="country"
						choices={countries}
						firstHeading="Countries we ship to"
						defaultValue={shown.country ?? ''}
						onChange={(event) => setCountry(event.currentTarget.value)}
						required
						error={errors.country}
					/>
					{shipping.zones.length > 0 ? (
						<ShippingOptions
							country={country}
							rates={here}
							chosenId={chosen?.id ?? null}
							onChoose={setRateId}
							askForRates={!hydrated}
							countryName={(code) => [...countries.shipped, ...countries.others].find((c) => c.code === code)?.name ?? code}
							error={errors.shippingRate}
						/>
					) : null}
					<fieldset className="payment-methods">
						<legend>Payment</legend>
						{connections.map((connection, index) => (
							<label key={connection.handle} className="radio">
								<input
									type="radio"
									name="payment"
									value={connection.handle}
									defaultChecked={shown.payment ? shown.payment === connection.handle : index === 0}
								/>{' '}
								{connection.displayName}
							</label>
						))}
						{errors.payment ? <p className="field-error">{errors.payment}</p> : null}
					</fieldset>
					<DiscountEntry applied={discount?.code ?? null}>{inSection('discount')}</DiscountEntry>
					<input type="hidden" name="idempotencyKey" value={idempotencyKey} />
					<Honeypot />
					<button type="submit" name="intent" value="place" disabled={pending}>
						{pending ? 'Placing order…' : 'Place order'}
					</button>
				</Form>
			</div>
		</section>
	)
}
