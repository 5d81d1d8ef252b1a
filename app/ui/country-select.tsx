import { countryChoices } from '../rules/countries'
import { FieldError } from './forms'

type CountrySelectProps = {
	name: string
	label: string
	/** Countries listed first, under their own heading (the Store's shipping countries). */
	first: readonly string[]
	firstHeading: string
	error?: string
} & Omit<React.SelectHTMLAttributes<HTMLSelectElement>, 'name'>

/** A labelled `<select>` of countries by name whose values are ISO codes; nothing chosen at first. */
export function CountrySelect({ name, label, first, firstHeading, error, ...select }: CountrySelectProps) {
	const id = `field-${name}`
	const { shipped, others } = countryChoices(first)
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
