import { z } from 'zod'
import { formSchema, recordId } from '../../security/form.server'

/** The fields of a collection, as both the new-collection and the edit form send them. */
export const collectionForm = formSchema({
	title: z.string().trim().min(1, 'Enter a title').max(120, 'Use at most 120 characters'),
	slug: z
		.string()
		.trim()
		.toLowerCase()
		.max(80, 'Use at most 80 characters')
		.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Use lower-case letters, digits and dashes'),
	description: z.string().trim().max(2000, 'Use at most 2,000 characters'),
})

const direction = z.enum(['up', 'down'], 'Choose up or down')

export const moveCollectionForm = formSchema({ id: recordId, direction })
export const productChoiceForm = formSchema({ productId: recordId })
export const moveProductForm = formSchema({ productId: recordId, direction })
export const confirmForm = formSchema({ confirm: z.literal('yes').optional() })
