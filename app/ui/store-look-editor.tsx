import { Form, Link, useNavigation } from 'react-router'
import { FieldError } from './forms'

type Look = {
	logo: { key: string; width: number | null; height: number | null } | null
	accentColor: string | null
	policies: Record<string, string>
}

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml'

/**
 * [R120] The Store's look in Store Admin: the logo (a plain multipart form, so it works without
 * JavaScript), the accent colour, and the policy pages as plain text. Each is its own form.
 */
export function StoreLookEditor({
	look,
	storeName,
	maxFileBytes,
	policyTitles,
	maxPolicyLength,
	defaultAccent,
	errors = {},
}: {
	look: Look
	storeName: string
	maxFileBytes: number
	policyTitles: Record<string, string>
	maxPolicyLength: number
	defaultAccent: string
	errors?: Record<string, string | undefined>
}) {
	const navigation = useNavigation()
	const busy = (intent: string) => navigation.state === 'submitting' && navigation.formAction?.includes(`intent=${intent}`)
	return (
		<div id="look">
			<h2>Logo</h2>
			{look.logo ? (
				<div className="look-form">
					<img
						className="brand-logo"
						src={`/media/${look.logo.key}`}
						alt={`${storeName} logo`}
						width={look.logo.width ?? undefined}
						height={look.logo.height ?? undefined}
						data-testid="current-logo"
					/>
					<Form method="post" action="?intent=remove-logo">
						<button type="submit" className="secondary">
							Remove the logo
						</button>
					</Form>
				</div>
			) : (
				<p className="hint">No logo: the header shows the store name.</p>
			)}
			<Form method="post" action="?intent=logo" encType="multipart/form-data" className="look-form">
				<label htmlFor="field-logo">
					{look.logo ? 'Replace the logo' : 'Logo'} (PNG, JPEG, GIF, WebP, AVIF or SVG; up to {Math.round(maxFileBytes / 1024 / 1024)} MB; shown at most 40 px
					high)
				</label>
				<input id="field-logo" type="file" name="file" accept={ACCEPT} required aria-describedby="field-logo-error" />
				<button type="submit" disabled={busy('logo')}>
					{busy('logo') ? 'Uploading…' : 'Upload logo'}
				</button>
			</Form>
			<FieldError id="field-logo-error" message={errors.logo} />

			<h2>Colour</h2>
			<Form method="post" action="?intent=accent" className="look-form">
				<label htmlFor="field-accentColor">Accent colour for links and buttons</label>
				<input
					id="field-accentColor"
					type="color"
					name="accentColor"
					defaultValue={look.accentColor ?? defaultAccent}
					aria-describedby="field-accentColor-hint field-accentColor-error"
				/>
				<button type="submit">Apply colour</button>
			</Form>
			<p className="hint" id="field-accentColor-hint">
				{look.accentColor ? `Now ${look.accentColor}.` : 'Now the default blue.'} A colour must keep text readable: at least 4.5:1 against the page, so light
				colours are refused.
			</p>
			<FieldError id="field-accentColor-error" message={errors.accentColor} />
			{look.accentColor ? (
				<Form method="post" action="?intent=reset-accent">
					<button type="submit" className="secondary">
						Use the default colours
					</button>
				</Form>
			) : null}

			<h2>Policy pages</h2>
			<Form method="post" action="?intent=policies">
				<p className="hint">
					Plain text: a blank line starts a new paragraph. A page with text is linked from every page&apos;s footer; leave it empty to take it down.
				</p>
				{Object.entries(policyTitles).map(([kind, title]) => (
					<div className="field" key={kind}>
						<label htmlFor={`field-${kind}`}>{title}</label>
						<textarea
							id={`field-${kind}`}
							name={kind}
							rows={6}
							defaultValue={look.policies[kind]}
							maxLength={maxPolicyLength}
							aria-invalid={errors[kind] ? true : undefined}
							aria-describedby={`field-${kind}-error`}
						/>
						<FieldError id={`field-${kind}-error`} message={errors[kind]} />
						{look.policies[kind] ? (
							<p className="hint">
								<Link to={`/policies/${kind}`}>See the published page</Link>
							</p>
						) : null}
					</div>
				))}
				<button type="submit" disabled={busy('policies')}>
					{busy('policies') ? 'Publishing…' : 'Publish policies'}
				</button>
			</Form>
		</div>
	)
}
