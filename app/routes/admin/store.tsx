import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/store'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor, repositoriesFor } from '../../repositories.server'
import { getConfig } from '../../config/env.server'
import type { AdminViewer } from '../../data/viewer'
import { DEFAULT_ACCENT, MAX_POLICY_LENGTH, POLICY_KINDS, POLICY_TITLES } from '../../store/identity'
import { receiveFiles, UploadError } from '../../uploads/intake.server'
import { StoreLookEditor } from '../../ui/store-look-editor'
import { AdminNotEnrolledError } from '../../store/store.server'
import { STORE_CURRENCIES } from '../../store/currencies'
import { domainFailure, fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FieldError, FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Store profile · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const [settings, look] = await Promise.all([repositoriesFor(admin).store.settings(), adminRepositoriesFor(admin).identity.look()])
	return { ...settings, look, maxFileBytes: getConfig().uploads.maxFileBytes }
}

const storeForm = formSchema({
	name: fields.name,
	// Absent when the select is disabled (the currency is fixed once there is an Order) [R118].
	currency: z.enum(STORE_CURRENCIES, 'Choose a currency from the list.').optional(),
	// A checkbox: present ("on") when ticked, absent when not.
	requireAdminTwoFactor: z.literal('on', { message: 'Tick the box or leave it empty' }).optional(),
})

const emptyForm = formSchema({})
const accentForm = formSchema({ accentColor: z.string().max(32, 'Enter a colour like #2747c9.') })
const policyText = z.string().max(MAX_POLICY_LENGTH, `Use at most ${MAX_POLICY_LENGTH.toLocaleString('en')} characters.`)
const policiesForm = formSchema({ shipping: policyText, returns: policyText, privacy: policyText })
/** Three policies at their longest, each character URL-encoded as the 9 bytes of a 3-byte UTF-8 one. */
const POLICIES_FORM_BYTES = POLICY_KINDS.length * MAX_POLICY_LENGTH * 9 + 4096
const BACK = '/admin/store#look'

/** [R120] The look's own forms: the logo (multipart, the upload intake's rules), the accent colour, the policy pages. */
async function lookAction(request: Request, admin: AdminViewer, intent: string) {
	const repos = adminRepositoriesFor(admin)
	if (intent === 'logo') {
		try {
			const files = await receiveFiles(request, { maxFileBytes: getConfig().uploads.maxFileBytes, maxFiles: 1 })
			// maxFiles 1: the intake refused a second file (413) before anything was stored.
			for (const stored of await repos.uploads.storeAll(files)) await repos.identity.setLogo({ key: stored.key, width: stored.width, height: stored.height })
		} catch (error) {
			if (!(error instanceof UploadError)) throw error
			return data(formFailure({ logo: error.message }, error.message), { status: error.status, headers: error.headers })
		}
		return redirectWithFlash(BACK, 'Logo saved.')
	}
	if (intent === 'remove-logo' || intent === 'reset-accent') {
		const form = await parseForm(request, emptyForm)
		if (!form.ok) return data(form, { status: 400 })
		if (intent === 'remove-logo') await repos.identity.removeLogo()
		else await repos.identity.setAccent(null)
		return redirectWithFlash(BACK, intent === 'remove-logo' ? 'Logo removed: the header shows the store name.' : 'The default colours are back.')
	}
	if (intent === 'accent') {
		const form = await parseForm(request, accentForm)
		if (!form.ok) return data(form, { status: 400 })
		await repos.identity.setAccent(form.data.accentColor)
		return redirectWithFlash(BACK, 'Colour applied.')
	}
	if (intent === 'policies') {
		const form = await parseForm(request, policiesForm, { maxBytes: POLICIES_FORM_BYTES })
		if (!form.ok) return data(form, { status: 400 })
		await repos.identity.savePolicies(form.data)
		return redirectWithFlash(BACK, 'Policies published.')
	}
	return data(formFailure({}, 'Unknown action.'), { status: 400 })
}

/** The Store edited is the session's Store; a `storeId` in the body is refused (400). */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const intent = new URL(args.request.url).searchParams.get('intent')
	if (intent) {
		try {
			const answer = await lookAction(args.request, admin, intent)
			if (answer instanceof Response) throw answer
			return answer
		} catch (error) {
			if (error instanceof Response) throw error
			return domainFailure(error)
		}
	}
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

const LOOK_FIELDS = ['logo', 'accentColor', ...POLICY_KINDS]

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' })

export default function StoreProfile({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && !navigation.formAction?.includes('intent=')
	const failed = actionData && !actionData.ok ? actionData : undefined
	// A refusal of one of the look's forms is shown beside that form, not above the profile's.
	const lookFailed = failed && LOOK_FIELDS.some((field) => failed.fieldErrors[field])
	const errors = lookFailed ? undefined : failed
	const currencyError = errors?.fieldErrors.currency
	return (
		<section>
			<h1>Store profile</h1>
			{/* Its page without a query: after a refused look form the address has that form's intent. */}
			<Form method="post" action="/admin/store" noValidate>
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
			<StoreLookEditor
				look={loaderData.look}
				storeName={loaderData.name}
				maxFileBytes={loaderData.maxFileBytes}
				policyTitles={POLICY_TITLES}
				maxPolicyLength={MAX_POLICY_LENGTH}
				defaultAccent={DEFAULT_ACCENT}
				errors={lookFailed ? failed.fieldErrors : undefined}
			/>
		</section>
	)
}
