import { describe, expect, it } from 'vitest'
import { srcSetOf } from './image-sources'

describe('srcset of product images [R112]', () => {
	const key = `stores/s/uploads/${'a'.repeat(32)}`
	it('offers the copies narrower than the upload, then the upload at its own width', () => {
		expect(srcSetOf(`${key}.jpg`, 700)).toBe(`/media/${key}.jpg?w=320 320w, /media/${key}.jpg?w=640 640w, /media/${key}.jpg 700w`)
		expect(srcSetOf(`${key}.png`, 200)).toBe(`/media/${key}.png 200w`)
		expect(srcSetOf(`${key}.webp`, null)?.split(', ')).toHaveLength(4)
	})
	it('offers none for SVG (it scales) or GIF (it may move)', () => {
		expect(srcSetOf(`${key}.svg`, 800)).toBeUndefined()
		expect(srcSetOf(`${key}.gif`, 800)).toBeUndefined()
	})
})
