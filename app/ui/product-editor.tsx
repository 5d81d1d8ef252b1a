import { useEffect, useRef, useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { LIMIT_TEXT } from '../rules/limits'
import { MAX_OPTIONS, MAX_VARIANTS } from '../rules/variants'
import { slugFromTitle } from '../rules/slug'
import { Field, FormError } from './forms'

// The limits the server enforces (docs/decisions/030), said beside the fields that have them.
const PRICE_HINT = `at most ${LIMIT_TEXT.unitPrice}`
const STOCK_HINT = `0 to ${LIMIT_TEXT.stock}`

type Variant = { id: string; optionValues: string[]; sku: string | null; priceMinor: number; stock: number; imageKey: string | null }
type Values = { title: string; slug: string; description: string; status: string; optionNames: string[]; variants: Variant[] }
type GalleryImage = { key: string }

/** Empty rows offered after the variants a product has: enough for sizes S to L without JavaScript. */
const BLANK_ROWS = 3

/**
 * The product form of Store Admin, for new and existing products; works without JavaScript.
 * Options (up to three names, like Size and Colour) and one row per variant with its option
 * values, SKU, price, stock and, once the product has images, an image [R121]. Rows left empty
 * are ignored; with JavaScript "Add a variant" offers more, a new product's slug follows its title
 * until the slug is typed in, and the variant rows are labelled with the option names as they are
 * typed [R130].
 */
export function ProductEditor({
	action,
	values,
	images = [],
	errors,
	formError,
	submitLabel,
	newImages,
}: {
	/** Where it posts: its page without a query, so it never sends as another form's intent. */
	action?: string
	values?: Values
	images?: readonly GalleryImage[]
	errors: Record<string, string>
	formError?: string
	submitLabel: string
	/** A new product's form also takes its first images (a multipart form). */
	newImages?: { maxImages: number; maxFileBytes: number }
}) {
	const pending = useNavigation().state === 'submitting'
	const variants = values?.variants ?? []
	const [blank, setBlank] = useState(variants.length === 0 ? BLANK_ROWS + 1 : BLANK_ROWS)
	const rows = Math.min(MAX_VARIANTS, variants.length + blank)
	const [names, setNames] = useState<string[]>(values?.optionNames ?? [])
	const slugInput = useRef<HTMLInputElement>(null)
	// An existing product keeps its address; a slug typed by hand is never overwritten.
	const slugTyped = useRef(Boolean(values?.slug))
	return (
		<Form method="post" action={action} noValidate className="card wide product-editor" encType={newImages ? 'multipart/form-data' : undefined}>
			<FormError message={formError} />
			<Field
				name="title"
				label="Title"
				defaultValue={values?.title}
				required
				error={errors.title}
				onChange={(event) => {
					if (!slugTyped.current && slugInput.current) slugInput.current.value = slugFromTitle(event.currentTarget.value)
				}}
			/>
			<Field
				ref={slugInput}
				name="slug"
				label="Slug (the address: /products/slug)"
				defaultValue={values?.slug}
				required
				error={errors.slug}
				onChange={(event) => {
					slugTyped.current = event.currentTarget.value !== ''
				}}
			/>
			<div className="field">
				<label htmlFor="field-description">Description</label>
				<textarea id="field-description" name="description" rows={4} defaultValue={values?.description} maxLength={2000} />
				{errors.description ? <p className="field-error">{errors.description}</p> : null}
			</div>
			<div className="field">
				<label htmlFor="field-status">Status</label>
				<select id="field-status" name="status" defaultValue={values?.status ?? 'draft'}>
					<option value="draft">Draft (hidden)</option>
					<option value="active">Active (for sale)</option>
					<option value="archived">Archived</option>
				</select>
			</div>
			{newImages ? <ImagePicker {...newImages} error={errors.images} /> : null}
			<fieldset className="option-names">
				<legend>Options</legend>
				<p className="hint">
					Sold in sizes or colours? Name up to {MAX_OPTIONS} options (like Size, then Colour) and give each variant below a value for each. Leave them empty to
					sell the product as one variant.
				</p>
				{errors.optionNames ? (
					<p className="field-error" role="alert">
						{errors.optionNames}
					</p>
				) : null}
				<div className="field-row">
					{Array.from({ length: MAX_OPTIONS }, (_, index) => (
						<Field
							key={index}
							name={`option${index + 1}Name`}
							label={`Option ${index + 1} name`}
							defaultValue={values?.optionNames[index] ?? ''}
							maxLength={40}
							onChange={(event) => {
								const typed = event.currentTarget.value.trim()
								setNames((current) => Array.from({ length: MAX_OPTIONS }, (_, i) => (i === index ? typed : (current[i] ?? ''))))
							}}
						/>
					))}
				</div>
			</fieldset>
			<h2 className="variants-heading">Variants</h2>
			{errors.variants ? (
				<p className="field-error" role="alert">
					{errors.variants}
				</p>
			) : null}
			{Array.from({ length: rows }, (_, index) => (
				<VariantRow key={index} index={index} variant={variants[index]} names={names} images={images} errors={errors} first={index === 0 && !values} />
			))}
			{rows < MAX_VARIANTS ? (
				<button type="button" className="secondary" onClick={() => setBlank((count) => count + 1)}>
					Add a variant
				</button>
			) : null}
			<button type="submit" disabled={pending}>
				{pending ? 'Saving…' : submitLabel}
			</button>
		</Form>
	)
}

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml'

/**
 * The new product's images: chosen with the file picker (several at once), previewed in the
 * order they will have when JavaScript runs; the first is the main image. Moving and removing
 * them is on the product's page once it is made.
 */
function ImagePicker({ maxImages, maxFileBytes, error }: { maxImages: number; maxFileBytes: number; error?: string }) {
	const [previews, setPreviews] = useState<Array<{ name: string; url: string }>>([])
	useEffect(() => () => previews.forEach((preview) => URL.revokeObjectURL(preview.url)), [previews])
	return (
		<div className="field">
			<label htmlFor="product-images">
				Images (up to {maxImages}: PNG, JPEG, GIF, WebP, AVIF or SVG, {Math.round(maxFileBytes / 1024 / 1024)} MB each; the first is the main image)
			</label>
			<input
				id="product-images"
				type="file"
				name="file"
				accept={ACCEPT}
				multiple
				aria-invalid={error ? true : undefined}
				onChange={(event) => setPreviews([...(event.currentTarget.files ?? [])].map((file) => ({ name: file.name, url: URL.createObjectURL(file) })))}
			/>
			{error ? (
				<p className="field-error" role="alert">
					{error}
				</p>
			) : null}
			{previews.length > 0 ? (
				<ol className="gallery-editor" data-testid="image-previews">
					{previews.map((preview, index) => (
						<li key={preview.url}>
							<img src={preview.url} alt={`Image ${index + 1}: ${preview.name}`} />
							<span className="hint">{index === 0 ? 'Main image' : `Image ${index + 1}`}</span>
						</li>
					))}
				</ol>
			) : null}
		</div>
	)
}

function VariantRow({
	index,
	variant,
	names,
	images,
	errors,
	first,
}: {
	index: number
	variant?: Variant
	names: readonly string[]
	images: readonly GalleryImage[]
	errors: Record<string, string>
	/** The first row of a new product starts at stock 0, like a product sold as one variant. */
	first: boolean
}) {
	const field = (name: string) => `variant.${index}.${name}`
	const id = (name: string) => `variant-${index}-${name}`
	return (
		<fieldset className="variant-row" data-testid="variant-row">
			<legend>{variant ? `Variant ${index + 1}` : `New variant ${index + 1}`}</legend>
			{variant ? <input type="hidden" name={field('id')} value={variant.id} /> : null}
			<div className="field-row">
				{Array.from({ length: MAX_OPTIONS }, (_, option) => (
					<Field
						key={option}
						id={id(`option${option + 1}`)}
						name={field(`option${option + 1}`)}
						label={names[option] || `Option ${option + 1}`}
						defaultValue={variant?.optionValues[option] ?? ''}
						maxLength={40}
						error={option === 0 ? errors[field('option1')] : undefined}
					/>
				))}
			</div>
			<div className="field-row">
				<Field id={id('sku')} name={field('sku')} label="SKU" defaultValue={variant?.sku ?? ''} maxLength={64} error={errors[field('sku')]} />
				<Field
					id={id('price')}
					name={field('price')}
					label={`Price (${PRICE_HINT})`}
					inputMode="decimal"
					defaultValue={variant ? (variant.priceMinor / 100).toFixed(2) : ''}
					error={errors[field('price')]}
				/>
				<Field
					id={id('stock')}
					name={field('stock')}
					label={`Stock (${STOCK_HINT})`}
					inputMode="numeric"
					defaultValue={variant ? String(variant.stock) : first ? '0' : ''}
					error={errors[field('stock')]}
				/>
				{images.length > 0 ? (
					<div className="field">
						<label htmlFor={id('image')}>Image</label>
						<select id={id('image')} name={field('imageKey')} defaultValue={variant?.imageKey ?? ''}>
							<option value="">The product’s main image</option>
							{images.map((image, position) => (
								<option key={image.key} value={image.key}>
									Image {position + 1}
								</option>
							))}
						</select>
					</div>
				) : null}
			</div>
			{variant ? (
				<label className="checkbox">
					<input type="checkbox" name={field('remove')} value="yes" /> Remove this variant
				</label>
			) : null}
		</fieldset>
	)
}
