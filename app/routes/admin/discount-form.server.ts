import { z } from 'zod'
import type { DiscountInput } from '../../discounts/admin-discounts.server'
import { DISCOUNT_KINDS } from '../../discounts/pricing'
import { type FormResult, formFailure, formSchema, parseForm } from '../../security/form.server'

/** "10", "12.5" or "5.00": two decimals at most, as hundredths (basis points, or minor units). */
const HUNDREDTHS = /^\d{1,9}(\.\d{1,2})?$/
const hundredths = (value: string) => {
	const [whole, fraction = ''] = value.split('.')
	return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

const amount = z.union([z.literal(''), z.string().regex(HUNDREDTHS, 'Enter an amount like 50.00, or leave it empty').transform(hundredths)])

/**
 * A date ("2026-12-01") or a date and time ("2026-12-01T09:30", as a datetime-local field sends
 * it): read as UTC, as Store Admin shows the times. An explicit offset ("Z", "+01:00") is kept.
 */
const moment = z.union([
	z.literal(''),
	z
		.string()
		.regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, 'Enter a date like 2026-12-01 or 2026-12-01T09:30, or leave it empty')
		.transform((value) => new Date(value.includes('T') ? (/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`) : `${value}T00:00:00Z`))
		.refine((date) => !Number.isNaN(date.getTime()), 'That date does not exist'),
])

const yes = z.literal('yes', { message: 'Tick the box or leave it empty' }).optional()

const discountForm = formSchema({
	code: z.string().trim().min(1, 'Enter a code').max(32, 'Use at most 32 characters'),
	kind: z.enum(DISCOUNT_KINDS, 'Choose percentage, fixed amount or free shipping'),
	value: z.string().trim().max(20, 'Enter a number like 10 or 5.00'),
	minimumSubtotal: amount,
	startsAt: moment,
	endsAt: moment,
	usageLimit: z.union([
		z.literal(''),
		z
			.string()
			.regex(/^\d{1,9}$/, 'Enter a whole number, or leave it empty')
			.transform(Number),
	]),
	oncePerCustomer: yes,
	active: yes,
})

/**
 * The new-discount and edit forms' fields as a DiscountInput. `value` is a percentage ("10") or
 * an amount ("5.00") by `kind`, both read to hundredths; free shipping takes none. The repository
 * checks every range again.
 */
export async function parseDiscountForm(request: Request): Promise<FormResult<DiscountInput>> {
	const form = await parseForm(request, discountForm)
	if (!form.ok) return form
	const { value, minimumSubtotal, usageLimit, startsAt, endsAt, oncePerCustomer, active, ...rest } = form.data
	if (rest.kind !== 'free_shipping' && !HUNDREDTHS.test(value)) {
		return formFailure({ value: rest.kind === 'percentage' ? 'Enter a percentage like 10 or 12.5' : 'Enter an amount like 5.00' })
	}
	return {
		ok: true,
		data: {
			...rest,
			value: rest.kind === 'free_shipping' ? 0 : hundredths(value),
			minimumSubtotalMinor: minimumSubtotal === '' ? null : minimumSubtotal,
			startsAt: startsAt === '' ? null : startsAt,
			endsAt: endsAt === '' ? null : endsAt,
			usageLimit: usageLimit === '' ? null : usageLimit,
			oncePerCustomer: oncePerCustomer === 'yes',
			active: active === 'yes',
		},
	}
}
