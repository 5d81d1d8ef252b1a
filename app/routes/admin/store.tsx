import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/store'
import { requireAdmin } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { AdminNotEnrolledError } from '../../store/store.server'
import { STORE_CURRENCIES } from '../../store/currencies'
import { domainFailure, fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../ui/flash.server'
import { Field, FieldError, FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Store profile · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return repositoriesFor(admin).store.settings()
}

const storeForm = formSchema({
	name: fields.name,
	// Absent when the select is disabled (the currency is fixed once there is an Order) [R118].
	currency: z.enum(STORE_CURRENCIES, 'Choose a currency from the list.').optional(),
	// A checkbox: present ("on") when ticked, absent when not.
	requireAdminTwoFactor: z.literal('on', { message: 'Tick the box or leave it empty' }).optional(),
})

/** The Store edited is the session's Store; a `storeId` in the body is refused (400). */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const form = await parseForm(args.request, storeForm)
	if (!form.ok) return data(form, { status: 400 })
	try {
		await repositoriesFor(admin).store.updateProfile({
			name: form.data.name,
			currency: form.data.currency,
			requireAdminTwoFactor: form.data.requireAdminTwoFactor === 'on',
		})
	} catch (error) {
		if (!(error instanceof AdminNotEnrolledError)) return domainFailure(error)
		return data(formFailure({ requireAdminTwoFactor: error.message }), { status: 400 })
	}
	throw await redirectWithFlash('/admin/store', 'Store profile saved.')
}

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' })

export default function StoreProfile({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const errors = actionData && !actionData.ok ? actionData : undefined
	const currencyError = errors?.fieldErrors.currency
	return (
		<section>
			<h1>Store profile</h1>
			<Form method="post" noValidate>
				<FormError message={errors?.formError} />
				<Field name="name" label="Store name" defaultValue={loaderData.name} required error={errors?.fieldErrors.name} />
				<div className="field">
					<label htmlFor="field-currency">Currency</label>
					<select
						id="field-currency"
						name="currency"
						defaultValue={loaderData.currency}
						disabled={loaderData.currencyFixed}
						aria-describedby="field-currency-hint field-currency-error"
						aria-invalid={currencyError ? true : undefined}
					>
						{STORE_CURRENCIES.map((code) => (
							<option key={code} value={code}>
								{code} · {currencyNames.of(code)}
							</option>
						))}
					</select>
					<p className="hint" id="field-currency-hint" data-testid="currency-hint">
						{loaderData.currencyFixed
							? 'Fixed: the store has taken orders in this currency.'
							: 'Every price and total is in this currency, and so is what the payment provider is asked for. It is fixed once the first order is placed.'}
					</p>
					<FieldError id="field-currency-error" message={currencyError} />
				</div>
				<fieldset>
					<legend>Sign-in</legend>
					<label>
						<input
							type="checkbox"
							name="requireAdminTwoFactor"
							defaultChecked={loaderData.requireAdminTwoFactor}
							aria-describedby="field-requireAdminTwoFactor-error"
						/>{' '}
						Require two-factor sign-in for administrators
					</label>
					<p className="hint">
						Admins who sign in with a password must then enter a code from their authenticator app; an admin who has not set it up cannot sign in with a
						password. Managed sign-in leaves the second factor to the provider. Set it up for yourself first (Account → Sessions and security).
					</p>
					<FieldError id="field-requireAdminTwoFactor-error" message={errors?.fieldErrors.requireAdminTwoFactor} />
				</fieldset>
				<button type="submit" disabled={pending}>
					{pending ? 'Saving…' : 'Save'}
				</button>
			</Form>
		</section>
	)
}
