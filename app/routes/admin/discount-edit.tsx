import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/discount-edit'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { domainFailure, formFailure, formSchema, parseForm, recordId } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { FormError } from '../../ui/forms'
import { DiscountFields } from './discount-fields'
import { parseDiscountForm } from './discount-form.server'

export const meta = ({ data: loaded }: Route.MetaArgs) => [{ title: `${loaded?.discount.code ?? 'Discount'} · Store Admin` }]

function discountId(params: { id: string }) {
	const parsed = recordId.safeParse(params.id)
	if (!parsed.success) throw data({ message: 'That discount was not found.' }, { status: 404 })
	return parsed.data
}

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	const discount = await adminRepositoriesFor(admin).discounts.byId(discountId(args.params))
	if (!discount) throw data({ message: 'That discount was not found.' }, { status: 404 })
	return { discount }
}

const switchForm = formSchema({ active: z.enum(['yes', 'no'], 'Choose yes or no') })

/** Save the code (no intent), or switch it off or on (`?intent=active`) [R135]. */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const id = discountId(args.params)
	const repo = adminRepositoriesFor(admin).discounts
	const intent = new URL(args.request.url).searchParams.get('intent')
	const here = `/admin/discounts/${id}`
	try {
		if (intent === 'active') {
			const form = await parseForm(args.request, switchForm)
			if (!form.ok) return data(form, { status: 400 })
			const found = await repo.setActive(id, form.data.active === 'yes')
			throw await redirectWithFlash(here, `${found.code} is ${form.data.active === 'yes' ? 'active' : 'switched off'}.`)
		}
		if (intent) return data(formFailure({}, 'Unknown action.'), { status: 400 })
		const form = await parseDiscountForm(args.request)
		if (!form.ok) return data(form, { status: 400 })
		const saved = await repo.update(id, form.data)
		throw await redirectWithFlash(here, `Discount ${saved.code} saved.`)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error)
	}
}

export default function EditDiscount({ loaderData, actionData }: Route.ComponentProps) {
	const { discount } = loaderData
	return (
		<section>
			<p>
				<Link to="/admin/discounts">← Discounts</Link>
			</p>
			<h1>
				Discount <code>{discount.code}</code>
			</h1>
			<p data-testid="discount-usage">
				Used {discount.usedCount}
				{discount.usageLimit !== null ? ` of ${discount.usageLimit}` : ''} times · {discount.active ? 'active' : 'switched off'}
			</p>
			{/* Its page without a query, so it never sends as the switch's intent. */}
			<Form method="post" action={`/admin/discounts/${discount.id}`} noValidate className="card wide">
				<FormError message={actionData?.formError} />
				<DiscountFields values={discount} errors={actionData?.fieldErrors ?? {}} />
				<button type="submit">Save discount</button>
			</Form>
			<Form method="post" action="?intent=active" className="card wide">
				<input type="hidden" name="active" value={discount.active ? 'no' : 'yes'} />
				<button type="submit">{discount.active ? 'Switch off' : 'Switch on'}</button>
			</Form>
		</section>
	)
}
