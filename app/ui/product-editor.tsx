import { Form, useNavigation } from 'react-router'
import { LIMIT_TEXT } from '../cart/limits'
import { Field, FormError } from './forms'

// The limits the server enforces (docs/decisions/030), said beside the fields that have them.
const PRICE_LABEL = `Price (at most ${LIMIT_TEXT.unitPrice})`
const STOCK_LABEL = `Stock (0 to ${LIMIT_TEXT.stock})`

type Values = { title: string; slug: string; description: string; priceMinor: number; stock: number; status: string }

/** The product form of Store Admin, for new and existing products; works without JavaScript. */
export function ProductEditor({
	values,
	errors,
	formError,
	submitLabel,
}: {
	values?: Values
	errors: Record<string, string>
	formError?: string
	submitLabel: string
}) {
	const pending = useNavigation().state === 'submitting'
	return (
		<Form method="post" noValidate className="card wide">
			<FormError message={formError} />
			<Field name="title" label="Title" defaultValue={values?.title} required error={errors.title} />
			<Field name="slug" label="Slug (the address: /products/slug)" defaultValue={values?.slug} required error={errors.slug} />
			<div className="field">
				<label htmlFor="field-description">Description</label>
				<textarea id="field-description" name="description" rows={4} defaultValue={values?.description} maxLength={2000} />
				{errors.description ? <p className="field-error">{errors.description}</p> : null}
			</div>
			<Field
				name="price"
				label={PRICE_LABEL}
				inputMode="decimal"
				defaultValue={values ? (values.priceMinor / 100).toFixed(2) : ''}
				required
				error={errors.price}
			/>
			<Field name="stock" label={STOCK_LABEL} inputMode="numeric" defaultValue={values ? String(values.stock) : '0'} required error={errors.stock} />
			<div className="field">
				<label htmlFor="field-status">Status</label>
				<select id="field-status" name="status" defaultValue={values?.status ?? 'draft'}>
					<option value="draft">Draft (hidden)</option>
					<option value="active">Active (for sale)</option>
					<option value="archived">Archived</option>
				</select>
			</div>
			<button type="submit" disabled={pending}>
				{pending ? 'Saving…' : submitLabel}
			</button>
		</Form>
	)
}
