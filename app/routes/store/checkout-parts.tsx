import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { ShippingTable } from '../../shipping/shipping.server'
import { type AppliedDiscount, orderTotals, percentText } from '../../rules/totals'
import { Price } from '../../ui/money-format'

type Rate = ShippingTable['zones'][number]['rates'][number]

/** The rates that ship to `country`: its zone's, cheapest first; none for a country no zone holds. */
export function ratesFor(shipping: ShippingTable, country: string): Rate[] {
	return shipping.zones.find((zone) => zone.countries.includes(country))?.rates ?? []
}

/**
 * The shipping choice: only the rates that ship to the chosen country [R127]. Without JavaScript
 * (`askForRates`) a button sends the form back with the country chosen, and the page answers with
 * that country's rates and everything typed kept.
 */
export function ShippingOptions({
	country,
	rates,
	chosenId,
	onChoose,
	askForRates,
	countryName,
	error,
}: {
	country: string
	rates: Rate[]
	chosenId: string | null
	onChoose: (id: string) => void
	askForRates: boolean
	/** A country's name as the server named it (the browser's Intl may differ). */
	countryName: (code: string) => string
	error?: string
}) {
	return (
		<fieldset className="payment-methods" data-testid="shipping-options" aria-describedby={error ? 'shipping-error' : undefined}>
			<legend>Shipping</legend>
			{askForRates ? (
				<p className="hint">
					<button type="submit" name="intent" value="rates" className="secondary" formNoValidate>
						Show shipping options
					</button>{' '}
					for the country chosen.
				</p>
			) : null}
			{country === '' ? <p className="hint">Choose your country to see how we can ship to it.</p> : null}
			{country !== '' && rates.length === 0 ? <p className="hint">This shop does not ship to {countryName(country)} yet.</p> : null}
			{rates.map((rate) => (
				<label key={rate.id} className="radio">
					<input type="radio" name="shippingRate" value={rate.id} defaultChecked={rate.id === chosenId} onChange={() => onChoose(rate.id)} /> {rate.name} ·{' '}
					{rate.priceMinor === 0 ? 'free' : <Price minor={rate.priceMinor} />}
					{rate.freeOverMinor !== null ? (
						<>
							{' '}
							(free from <Price minor={rate.freeOverMinor} />)
						</>
					) : null}
				</label>
			))}
			{error ? (
				<p className="field-error" id="shipping-error" role="alert">
					{error}
				</p>
			) : null}
		</fieldset>
	)
}

/**
 * The discount code's field with its "Apply" button: without JavaScript it sends the form back
 * priced with the code (everything typed kept, nothing placed); with it the summary follows the
 * answer at once [R132, R133].
 */
export function DiscountEntry({ applied, children }: { applied: string | null; children: ReactNode }) {
	return (
		<div className="discount-entry" data-testid="discount-entry">
			{children}
			<button type="submit" name="intent" value="apply" className="secondary" formNoValidate>
				Apply
			</button>
			{applied ? (
				<p className="hint" data-testid="discount-applied" role="status">
					{applied} applied: see the order summary.
				</p>
			) : null}
		</div>
	)
}

/**
 * Lines, shipping, tax, the discount and the total, as they will be charged for `country`, the
 * rate chosen and the code's discount as the server worked it out: by `orderTotals`, the one
 * function placing the Order uses too. A figure to show, never one sent back [R132].
 */
export function CheckoutSummary({
	summary,
	shipping,
	country,
	chosen,
	discount,
}: {
	summary: { lines: Array<{ id: string; quantity: number; product: { title: string }; lineTotalMinor: number }>; subtotalMinor: number }
	shipping: ShippingTable
	country: string
	chosen: Rate | null
	discount: (AppliedDiscount & { code: string }) | null
}) {
	const needsShipping = shipping.zones.length > 0
	const totals = orderTotals({
		subtotalMinor: summary.subtotalMinor,
		shipping: chosen,
		taxRateBasisPoints: shipping.taxRates[country] ?? 0,
		pricesIncludeTax: shipping.pricesIncludeTax,
		discount,
	})
	return (
		<aside className="card order-summary" aria-labelledby="order-summary-heading">
			<h2 id="order-summary-heading">Order summary</h2>
			<ul>
				{summary.lines.map((line) => (
					<li key={line.id}>
						{line.quantity} × {line.product.title} <Price minor={line.lineTotalMinor} />
					</li>
				))}
			</ul>
			{needsShipping || totals.taxMinor > 0 || discount ? (
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
					{discount ? (
						<>
							<dt>Discount ({discount.code})</dt>
							<dd data-testid="checkout-discount">
								−<Price minor={totals.discountMinor} />
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
	)
}
