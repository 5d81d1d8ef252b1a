import type { FieldErrors } from '../../security/form.server'
import { Field, FieldError } from '../../ui/forms'

export type DiscountValues = {
	code: string
	kind: string
	value: number
	minimumSubtotalMinor: number | null
	startsAt: Date | string | null
	endsAt: Date | string | null
	usageLimit: number | null
	oncePerCustomer: boolean
	active: boolean
}

/** Hundredths as typed: 1250 → "12.50", 1000 → "10.00". */
const hundredths = (value: number) => (value / 100).toFixed(2)
/** A moment as the datetime-local field takes it, in UTC: "2026-12-01T09:30". */
const utcField = (moment: Date | string | null) => (moment ? new Date(moment).toISOString().slice(0, 16) : '')

/** The fields of a discount code, as the new and the edit form show them [R135]. */
export function DiscountFields({ values, errors }: { values: DiscountValues | null; errors: FieldErrors }) {
	return (
		<>
			<Field
				name="code"
				label="Code (letters, digits, - and _; case does not matter)"
				required
				maxLength={32}
				defaultValue={values?.code}
				error={errors.code}
			/>
			<div className="field">
				<label htmlFor="field-kind">Kind</label>
				<select id="field-kind" name="kind" defaultValue={values?.kind ?? 'percentage'}>
					<option value="percentage">Percentage off the goods</option>
					<option value="fixed">Fixed amount off the goods</option>
					<option value="free_shipping">Free shipping</option>
				</select>
				<FieldError id="field-kind-error" message={errors.kind} />
			</div>
			<Field
				name="value"
				label="Value: a percentage like 10, or an amount like 5.00 (none for free shipping)"
				inputMode="decimal"
				maxLength={20}
				defaultValue={values && values.kind !== 'free_shipping' ? hundredths(values.value) : ''}
				error={errors.value}
			/>
			<Field
				name="minimumSubtotal"
				label="Minimum subtotal (optional)"
				inputMode="decimal"
				maxLength={12}
				defaultValue={values?.minimumSubtotalMinor != null ? hundredths(values.minimumSubtotalMinor) : ''}
				error={errors.minimumSubtotal}
			/>
			<Field name="startsAt" label="Starts (UTC, optional)" type="datetime-local" defaultValue={utcField(values?.startsAt ?? null)} error={errors.startsAt} />
			<Field name="endsAt" label="Ends (UTC, optional)" type="datetime-local" defaultValue={utcField(values?.endsAt ?? null)} error={errors.endsAt} />
			<Field
				name="usageLimit"
				label="Total uses allowed (optional)"
				inputMode="numeric"
				maxLength={9}
				defaultValue={values?.usageLimit != null ? String(values.usageLimit) : ''}
				error={errors.usageLimit}
			/>
			<label className="checkbox">
				<input type="checkbox" name="oncePerCustomer" value="yes" defaultChecked={values?.oncePerCustomer ?? false} /> Once per customer (by account, and by
				email for guests)
			</label>
			<FieldError id="field-oncePerCustomer-error" message={errors.oncePerCustomer} />
			<label className="checkbox">
				<input type="checkbox" name="active" value="yes" defaultChecked={values?.active ?? true} /> Active
			</label>
			<FieldError id="field-active-error" message={errors.active} />
		</>
	)
}
