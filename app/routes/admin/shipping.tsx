import { data, Form } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/shipping'
import { requireAdmin } from '../../auth/guards.server'
import { percentText } from '../../rules/totals'
import { notFound } from '../../errors.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { type FormFailure, type FormSchema, domainFailure, formFailure, formSchema, parseForm, recordId } from '../../security/form.server'
import { countryName, parseCountries } from '../../rules/countries'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FieldError, FormError } from '../../ui/forms'
import { Price } from '../../ui/money-format'

export const meta = () => [{ title: 'Shipping and taxes · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const repositories = adminRepositoriesFor(admin)
	const [table, store] = await Promise.all([repositories.shipping.table(), repositories.store.profile()])
	return { ...table, currency: store.currency }
}

/** "4.95", "4.5" or "4" in major units, to integer minor units: two decimals at most, as the product form takes prices. */
const money = (message: string) =>
	z
		.string()
		.trim()
		.regex(/^\d{1,9}(\.\d{1,2})?$/, message)
		.transform((value) => {
			const [whole, fraction = ''] = value.split('.')
			return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
		})

const FORMS = {
	'add-zone': formSchema({ name: z.string().trim(), countries: z.string().max(2000, 'List at most 250 country codes') }),
	'remove-zone': formSchema({ zoneId: recordId }),
	'add-rate': formSchema({
		rateName: z.string().trim(),
		price: money('Enter a price like 4.95 (0 for free)'),
		freeOver: z.union([z.literal(''), money('Enter an amount like 50.00, or leave it empty')]),
	}),
	'remove-rate': formSchema({ rateId: recordId }),
	'set-tax': formSchema({
		country: z
			.string()
			.trim()
			.toUpperCase()
			.regex(/^[A-Z]{2}$/, 'Enter a two-letter country code, like DE'),
		// "19" or "7.5": a percent with two decimals at most, to hundredths of a percent (basis points).
		rate: money('Enter a rate like 19 or 7.5'),
	}),
	'remove-tax': formSchema({ country: z.string().regex(/^[A-Z]{2}$/, 'Unknown country') }),
	// A checkbox: present ("on") when ticked, absent when not.
	'prices-include-tax': formSchema({ pricesIncludeTax: z.literal('on', { message: 'Tick the box or leave it empty' }).optional() }),
} as const

type Intent = keyof typeof FORMS

const DONE: Record<Intent, string> = {
	'add-zone': 'Zone added.',
	'remove-zone': 'Zone removed, with its rates.',
	'add-rate': 'Rate added.',
	'remove-rate': 'Rate removed.',
	'set-tax': 'Tax rate saved.',
	'remove-tax': 'Tax rate removed.',
	'prices-include-tax': 'Tax setting saved.',
}

const isIntent = (value: string): value is Intent => Object.hasOwn(FORMS, value)

/** Forms whose only fields are hidden: what went wrong is said above them all, not beside a field. */
const HIDDEN_ONLY: ReadonlySet<Intent> = new Set(['remove-zone', 'remove-rate', 'remove-tax'])

type Refusal = FormFailure & { intent: Intent | null; zoneId?: string }

/**
 * [R119] Each form names its intent in the URL (`?intent=add-zone`) and posts plain fields, so every
 * one works without JavaScript; the repository checks every value again. A refusal says which form
 * (and which zone's rate form) it answers, so its errors show beside that form's fields.
 */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const repo = adminRepositoriesFor(admin).shipping
	const { request } = args
	const params = new URL(request.url).searchParams
	const intent = params.get('intent') ?? ''
	if (!isIntent(intent)) return data<Refusal>({ ...formFailure({}, 'Unknown action.'), intent: null }, { status: 400 })
	let zoneId: string | undefined
	const refused = (failure: FormFailure, init: ResponseInit | null = { status: 400 }) => {
		const said = HIDDEN_ONLY.has(intent) && !failure.formError ? formFailure({}, Object.values(failure.fieldErrors)[0]) : failure
		return data<Refusal>({ ...said, intent, zoneId }, init ?? { status: 400 })
	}
	/** Reads the intent's form; a valid one is handed to `write`, an invalid one comes back refused. */
	const submit =
		<Shape extends z.ZodRawShape>(schema: FormSchema<Shape>, write: (form: z.infer<FormSchema<Shape>>) => Promise<unknown>) =>
		async (): Promise<FormFailure | null> => {
			const form = await parseForm(request, schema)
			if (!form.ok) return form
			await write(form.data)
			return null
		}
	const writes: Record<Intent, () => Promise<FormFailure | null>> = {
		'add-zone': submit(FORMS['add-zone'], ({ name, countries }) => {
			const parsed = parseCountries(countries)
			// Unknown or missing codes: the repository words it (one message for both ways in).
			return repo.addZone({ name, countries: parsed.ok ? parsed.countries : parsed.unknown })
		}),
		'remove-zone': submit(FORMS['remove-zone'], ({ zoneId }) => repo.removeZone(zoneId)),
		'add-rate': submit(FORMS['add-rate'], ({ rateName, price, freeOver }) =>
			repo.addRate(zoneId ?? '', { name: rateName, priceMinor: price, freeOverMinor: freeOver === '' ? null : freeOver }),
		),
		'remove-rate': submit(FORMS['remove-rate'], ({ rateId }) => repo.removeRate(rateId)),
		'set-tax': submit(FORMS['set-tax'], ({ country, rate }) => repo.setTaxRate(country, rate)),
		'remove-tax': submit(FORMS['remove-tax'], ({ country }) => repo.removeTaxRate(country)),
		'prices-include-tax': submit(FORMS['prices-include-tax'], ({ pricesIncludeTax }) => repo.setPricesIncludeTax(pricesIncludeTax === 'on')),
	}
	try {
		if (intent === 'add-rate') {
			// The zone is in the form's address, so even fields refused before it is read find their zone.
			const zone = recordId.safeParse(params.get('zone'))
			if (!zone.success) throw notFound('That shipping zone')
			zoneId = zone.data
		}
		const failure = await writes[intent]()
		if (failure) return refused(failure)
	} catch (error) {
		const failure = domainFailure(error)
		return refused(failure.data, failure.init)
	}
	throw await redirectWithFlash('/admin/shipping', DONE[intent])
}

export default function Shipping({ loaderData, actionData }: Route.ComponentProps) {
	const { zones, taxRates, pricesIncludeTax, currency } = loaderData
	const errorsOf = (intent: Intent, zoneId?: string): Record<string, string | undefined> =>
		actionData?.intent === intent && actionData.zoneId === zoneId ? actionData.fieldErrors : {}
	const zoneErrors = errorsOf('add-zone')
	const taxErrors = errorsOf('set-tax')
	const taxes = Object.entries(taxRates).sort(([a], [b]) => a.localeCompare(b))
	return (
		<section>
			<h1>Shipping and taxes</h1>
			<FormError message={actionData?.formError} />
			<p className="hint">
				With no zone, orders ship everywhere at no cost. Once there is one, buyers choose a rate of their country’s zone, and countries in no zone cannot order.
			</p>

			<h2>Shipping zones</h2>
			<div data-testid="shipping-zones">
				{zones.length === 0 ? <p className="hint">No zones yet.</p> : null}
				{zones.map((zone) => {
					const rateErrors = errorsOf('add-rate', zone.id)
					return (
						<div key={zone.id} className="card wide" data-testid="shipping-zone">
							<h3>{zone.name}</h3>
							<p>{zone.countries.map((code) => `${countryName(code)} (${code})`).join(', ')}</p>
							{zone.rates.length === 0 ? (
								<p className="hint">No rates: buyers in this zone cannot order until it has one.</p>
							) : (
								<table className="data-table">
									<thead>
										<tr>
											<th>Rate</th>
											<th>Price</th>
											<th>Free shipping</th>
											<th>
												<span className="visually-hidden">Actions</span>
											</th>
										</tr>
									</thead>
									<tbody>
										{zone.rates.map((rate) => (
											<tr key={rate.id} data-testid="shipping-rate">
												<td data-label="Rate">{rate.name}</td>
												<td data-label="Price">{rate.priceMinor === 0 ? 'Free' : <Price minor={rate.priceMinor} currency={currency} />}</td>
												<td data-label="Free shipping">
													{rate.freeOverMinor === null ? (
														'—'
													) : (
														<>
															Free over <Price minor={rate.freeOverMinor} currency={currency} />
														</>
													)}
												</td>
												<td data-label="Actions">
													<Form method="post" action="?intent=remove-rate">
														<input type="hidden" name="rateId" value={rate.id} />
														<button type="submit" className="link-button">
															Remove
															<span className="visually-hidden">
																{' '}
																the rate {rate.name} of {zone.name}
															</span>
														</button>
													</Form>
												</td>
											</tr>
										))}
									</tbody>
								</table>
							)}
							{/* Keyed by the zone's rates: it empties once a rate is added, keeps what was typed when refused. */}
							<Form key={zone.rates.map((rate) => rate.id).join()} method="post" action={`?intent=add-rate&zone=${zone.id}`} className="row-actions" noValidate>
								<ZoneField
									zoneId={zone.id}
									name="rateName"
									label={`New rate for ${zone.name}`}
									placeholder="Standard"
									maxLength={60}
									error={rateErrors.rateName}
								/>
								<ZoneField zoneId={zone.id} name="price" label="Price" inputMode="decimal" placeholder="4.95" error={rateErrors.price} />
								<ZoneField zoneId={zone.id} name="freeOver" label="Free from (optional)" inputMode="decimal" placeholder="50.00" error={rateErrors.freeOver} />
								<button type="submit">Add rate</button>
							</Form>
							<Form method="post" action="?intent=remove-zone">
								<input type="hidden" name="zoneId" value={zone.id} />
								<button type="submit" className="danger">
									Remove zone<span className="visually-hidden"> {zone.name} and its rates</span>
								</button>
							</Form>
						</div>
					)
				})}
			</div>

			<h3>Add a zone</h3>
			<Form key={zones.map((zone) => zone.id).join()} method="post" action="?intent=add-zone" className="card wide" noValidate>
				<Field name="name" label="Zone name" placeholder="Europe" maxLength={60} required error={zoneErrors.name} />
				<Field name="countries" label="Country codes, separated by commas" placeholder="DE, FR, NL" required error={zoneErrors.countries} />
				<button type="submit">Add zone</button>
			</Form>

			<h2>Taxes</h2>
			<Form method="post" action="?intent=prices-include-tax" className="card wide">
				<div className="field">
					<label>
						<input
							type="checkbox"
							name="pricesIncludeTax"
							defaultChecked={pricesIncludeTax}
							aria-describedby="prices-include-tax-hint"
							key={String(pricesIncludeTax)}
						/>{' '}
						Prices include tax
					</label>
					<p className="hint" id="prices-include-tax-hint">
						Ticked, the prices you enter already include tax and the total shows the tax in it; otherwise tax is added at checkout. Tax applies to goods and
						shipping together.
					</p>
				</div>
				<button type="submit">Save</button>
			</Form>
			<table className="data-table" data-testid="tax-rates">
				<thead>
					<tr>
						<th>Country</th>
						<th>Tax rate</th>
						<th>
							<span className="visually-hidden">Actions</span>
						</th>
					</tr>
				</thead>
				<tbody>
					{taxes.length === 0 ? (
						<tr>
							<td colSpan={3}>No tax rates: no tax is charged.</td>
						</tr>
					) : null}
					{taxes.map(([country, basisPoints]) => (
						<tr key={country}>
							<td data-label="Country">
								{countryName(country)} ({country})
							</td>
							<td data-label="Tax rate">{percentText(basisPoints)}</td>
							<td data-label="Actions">
								<Form method="post" action="?intent=remove-tax">
									<input type="hidden" name="country" value={country} />
									<button type="submit" className="link-button">
										Remove<span className="visually-hidden"> the tax rate of {countryName(country)}</span>
									</button>
								</Form>
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<h3>Add or change a tax rate</h3>
			<Form key={taxes.join()} method="post" action="?intent=set-tax" className="card wide" noValidate>
				<Field name="country" label="Country code" placeholder="DE" maxLength={2} autoCapitalize="characters" required error={taxErrors.country} />
				<Field name="rate" label="Tax rate (percent)" inputMode="decimal" placeholder="19" required error={taxErrors.rate} />
				<button type="submit">Save tax rate</button>
			</Form>
		</section>
	)
}

/** A labelled input of one zone's rate form: ids carry the zone, since every zone has such a form. */
function ZoneField({
	zoneId,
	name,
	label,
	error,
	...input
}: { zoneId: string; name: string; label: string; error?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
	const id = `${name}-${zoneId}`
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
			<FieldError id={`${id}-error`} message={error} />
		</div>
	)
}
