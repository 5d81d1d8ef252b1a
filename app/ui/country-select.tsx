import type { countryChoices } from '../rules/countries'
import { FieldError } from './forms'

type CountrySelectProps = {
	name: string
	label: string
	/**
	 * The countries by name, those listed first (the Store's shipping countries) apart: made on the
	 * server (countryChoices) and handed over with the page's data, so the browser shows the same
	 * names. Its own Intl names some countries otherwise (another ICU), and a page whose text
	 * differs is rendered again on hydration, losing whatever was typed before.
	 */
	choices: ReturnType<typeof countryChoices>
	firstHeading: string
	error?: string
} & Omit<React.SelectHTMLAttributes<HTMLSelectElement>, 'name'>

/** A labelled `<select>` of countries by name whose values are ISO codes; nothing chosen at first. */
export function CountrySelect({ name, label, choices, firstHeading, error, ...select }: CountrySelectProps) {
	const id = `field-${name}`
	const { shipped, others } = choices
	const option = (country: { code: string; name: string }) => (
		<option key={country.code} value={country.code}>
			{country.name}
		</option>
	)
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<select id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...select}>
				<option value="">Choose a country…</option>
				{shipped.length > 0 ? (
					<>
						<optgroup label={firstHeading}>{shipped.map(option)}</optgroup>
						<optgroup label="All other countries">{others.map(option)}</optgroup>
					</>
				) : (
					others.map(option)
				)}
			</select>
			<FieldError id={`${id}-error`} message={error} />
		</div>
	)
}
